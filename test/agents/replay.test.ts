import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { replay } from '../../src/agents/replay/index.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { agentContext, FakeComputer, harnessAccess, rejection, TASK } from './helpers.ts'

/** A minimal recorded run of TASK on a clone that was at port 4000. */
function recorded(overrides: Partial<TestCaseRun> = {}): TestCaseRun {
  const step = (index: number, action: TestCaseRun['trajectory'][number]['action'], thought = '') => ({
    index,
    timestamp: 0,
    action,
    thought,
    screenshot: null,
    url: 'http://127.0.0.1:4000/',
    error: null,
  })
  return {
    ...TASK,
    schema_version: 1,
    run_id: 'r1',
    retries: [],
    test_name: 'omnizon-1: names the first result',
    file: 'tasks/omnizon/omnizon-1.task.ts',
    agent_yaml: 'name: oracle\n',
    agent_model: null,
    cache_key: null,
    cached: false,
    cached_from: null,
    status: 'passed',
    agent_status: 'done',
    trajectory: [
      step(1, { type: 'click', x: 595, y: 30, button: 'left' }, 'the search box'),
      step(2, { type: 'goto', url: 'http://127.0.0.1:4000/search?q=laptop' }),
      step(3, { type: 'goto', url: 'https://example.com/' }),
      step(4, { type: 'message', text: 'MacBook Air' }),
    ],
    result: null,
    final_answer: 'MacBook Air',
    final_state: null,
    transcript: null,
    check_results: [],
    command_output_check_results: [],
    input_tokens: 0,
    output_tokens: 0,
    ai_score: -1,
    ai_comment: null,
    human_score: -1,
    human_comment: null,
    validation_input_tokens: 0,
    validation_output_tokens: 0,
    error: null,
    started_at: '',
    finished_at: '',
    duration_ms: 0,
    ...overrides,
  }
}

function resultsWith(run: TestCaseRun): { resultsDir: string; runDir: string; file: string } {
  const resultsDir = mkdtempSync(join(tmpdir(), 'agentest-replay-'))
  const runDir = join(resultsDir, 'run-1')
  mkdirSync(runDir)
  const file = join(runDir, `${run.id}.json`)
  writeFileSync(file, JSON.stringify(run))
  return { resultsDir, runDir, file }
}

function replayFrom(from: string, resultsDir: string, computer = new FakeComputer('browser', 'http://127.0.0.1:5000/')) {
  const context = agentContext({ computer, baseUrl: 'http://unused.test/v1', agentOptions: { from } })
  return { computer, context, outcome: replay.run(context, harnessAccess({ resultsDir })) }
}

describe('replay: performs a recorded run again', () => {
  test('from a file: the actions with their thoughts, the final answer, clone URLs moved to the new port', async () => {
    const { file, resultsDir } = resultsWith(recorded())
    const { computer, context, outcome } = replayFrom(file, resultsDir)
    expect((await outcome).answer).toBe('MacBook Air')
    expect(computer.actions).toEqual([
      { type: 'click', x: 595, y: 30, button: 'left' },
      { type: 'goto', url: 'http://127.0.0.1:5000/search?q=laptop' },
      { type: 'goto', url: 'https://example.com/' },
    ])
    expect(context.thoughts).toEqual(['the search box'])
  })

  test('from a run folder, or a run id under the results dir', async () => {
    const { runDir, resultsDir } = resultsWith(recorded())
    expect((await replayFrom(runDir, resultsDir).outcome).answer).toBe('MacBook Air')
    expect((await replayFrom('run-1', resultsDir).outcome).answer).toBe('MacBook Air')
  })

  test('a missing run, a run without the task, or a record of another task is one clear line', async () => {
    const { resultsDir, runDir } = resultsWith(recorded({ id: 'omnizon-2' }))
    expect((await rejection(replayFrom('nope', resultsDir).outcome)).message).toMatch(/^agent\.options\.from: no run file or folder at "nope"/)
    expect((await rejection(replayFrom('run-1', resultsDir).outcome)).message).toBe(
      `agent.options.from: ${runDir} has no omnizon-1.json (the task is not in that run)`,
    )
    expect((await rejection(replayFrom(join(runDir, 'omnizon-2.json'), resultsDir).outcome)).message).toMatch(/records task omnizon-2, not omnizon-1$/)
  })

  test('a file that is not a TestCaseRun names the field', async () => {
    const { file, resultsDir } = resultsWith(recorded())
    writeFileSync(file, JSON.stringify({ id: 'omnizon-1' }))
    expect((await rejection(replayFrom(file, resultsDir).outcome)).message).toMatch(/: not a TestCaseRun: \w+: /)
  })
})
