import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { filesHolding } from '../support/files-holding.ts'
import { startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { commandAgentPolicy, GIVE_UP } from '../data/command-agents/policy.ts'
import { noDocker } from '../docker/docker-available.ts'
import { runBenchmark, type BenchmarkRun } from './run-benchmark.ts'

/**
 * The example command agents (fixtures/agents/mcp-node, fixtures/agents/http-python) run the way
 * users run them: `vitest run` with agent `command`, their model calls going to the scripted
 * model server (a test double) that serves the oracle's recorded actions. Each passes an Omnizon
 * task and a desktop task, and fails a third task where the model finishes at once with a wrong
 * answer; their trajectories are the harness's own, their output is in agent.log, and the key
 * they were given is in no file of the run.
 */
const OMNIZON = 'tasks/omnizon/omnizon-1.task.ts'
const DESKTOP = 'tasks/desktop/terminal-hello.task.ts'
const KEY_VARIABLE = 'AGENTEST_COMMAND_E2E_KEY'
const KEY = 'sk-agentest-command-e2e-KEY-5e2b7c1d9a'

const EXAMPLES = [
  // The nop-like task of each run: one a browser task, one a desktop task.
  { name: 'mcp-node', command: 'node fixtures/agents/mcp-node/agent.mjs', nop: { file: 'tasks/omnizon/omnizon-2.task.ts', id: 'omnizon-2' } },
  { name: 'http-python', command: 'python3 fixtures/agents/http-python/agent.py', nop: { file: 'tasks/desktop/editor-note.task.ts', id: 'desktop-editor-note' } },
]

let oracle: TestCaseRun[] = []
let server: ModelServer | null = null

/** The actions a record took, its final answer aside. */
const actionsOf = (record: TestCaseRun) => record.trajectory.filter((s) => s.action.type !== 'message')


describe.skipIf(noDocker)('the example command agents, end to end', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    const recorded = await runBenchmark([OMNIZON, DESKTOP], { AGENTEST_AGENT: 'oracle' }, undefined, { grader: false })
    oracle = recorded.results
    expect(oracle.map((r) => [r.id, r.status]).sort(), recorded.stdout.slice(-2000)).toEqual([
      ['desktop-terminal-hello', 'passed'],
      ['omnizon-1', 'passed'],
    ])
    server = await startModelServer({ policy: commandAgentPolicy(oracle) })
  }, 300_000)

  afterAll(async () => {
    await server?.close()
  })

  test.each(EXAMPLES)('$name passes an Omnizon task and a desktop task, and fails when its model gives up', async (example) => {
    const requestsBefore = server!.requests.length
    const run: BenchmarkRun = await runBenchmark(
      [OMNIZON, DESKTOP, example.nop.file],
      {
        AGENTEST_AGENT: 'command',
        AGENTEST_AGENT_COMMAND: example.command,
        AGENTEST_MODEL: 'scripted-model',
        AGENTEST_BASE_URL: server!.url,
        AGENTEST_API_KEY_ENV: KEY_VARIABLE,
        [KEY_VARIABLE]: KEY,
      },
      undefined,
      { grader: false },
    )
    const shown = `${run.stderr}${run.stdout.slice(-3000)}`
    expect(run.runDir, shown).not.toBeNull()
    const runDir = run.runDir!
    const byId = Object.fromEntries(run.results.map((r) => [r.id, r]))
    expect(Object.keys(byId).sort(), shown).toEqual(['desktop-terminal-hello', example.nop.id, 'omnizon-1'].sort())

    for (const expected of oracle) {
      const result = byId[expected.id]!
      expect(result.status, `${example.name} ${result.id}: ${result.error?.message}\n${shown}`).toBe('passed')
      expect(result.agent_yaml).toContain('name: command')
      expect(result.agent_yaml).toContain(example.command.split(' ')[1])
      expect(result.agent_model).toBe('scripted-model')
      // The oracle's actions, performed through the served Computer, each a step the harness
      // recorded with its own screenshot on disk.
      expect(actionsOf(result).map((s) => s.action)).toEqual(actionsOf(expected).map((s) => s.action))
      for (const step of actionsOf(result)) {
        expect(step.screenshot).toMatch(new RegExp(`^${result.id}/step-\\d{3}\\.png$`))
        expect(readFileSync(join(runDir, step.screenshot!)).subarray(1, 4).toString()).toBe('PNG')
      }
      expect(existsSync(join(runDir, result.id, 'steps.jsonl'))).toBe(true)
      // The program's own output, line by line.
      const log = readFileSync(join(runDir, result.id, 'agent.log'), 'utf8')
      expect(log).toMatch(/^out\| step 1: /m)
      expect(log).toMatch(/^out\| finished: /m)
    }
    expect(byId['omnizon-1']!.final_answer).toBe(oracle.find((r) => r.id === 'omnizon-1')!.final_answer)

    // The model finished at once with a wrong answer: the task's checks fail it.
    const nop = byId[example.nop.id]!
    expect(nop.status, `${example.name} ${nop.id}: ${nop.error?.message}`).toBe('failed')
    expect(nop.final_answer).toBe(GIVE_UP)
    expect(actionsOf(nop)).toEqual([])
    expect(readFileSync(join(runDir, nop.id, 'agent.log'), 'utf8')).toContain(`out| finished: ${JSON.stringify(GIVE_UP)}`)

    // The program sent the key to its model and offered it the served tools, finish among them.
    const calls = server!.requests.slice(requestsBefore)
    expect(calls.length).toBeGreaterThanOrEqual(4 + 1 + 2 + 1)
    for (const call of calls) {
      expect(call.endpoint).toBe('chat')
      expect(call.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(call.screenshot?.subarray(1, 4).toString()).toBe('PNG')
    }
    const tools = (calls[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)
    expect(tools).toEqual(expect.arrayContaining(['click', 'type', 'keypress', 'finish']))
    // ...and the key is in no file of the run folder (agent.log, records, config, report).
    expect(filesHolding(KEY, [runDir])).toEqual([])
  })
})
