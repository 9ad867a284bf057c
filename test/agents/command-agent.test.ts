import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { AgentContext, HarnessAccess } from '../../src/agents/agent.ts'
import { agentTaskOf } from '../../src/agents/task.ts'
import { commandAgent } from '../../src/agents/command/index.ts'
import { AgentFailure } from '../../src/agents/failure.ts'
import { sealComputer } from '../../src/computer/sealed.ts'
import { AgentConfig } from '../../src/schema/config.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { RecordingComputer, TaskAbortedError } from '../../src/trajectory/recording-computer.ts'
import { FakeComputer, TASK, harnessAccess, rejection } from './helpers.ts'
import { alive } from '../support/processes.ts'

const PROGRAM = join(import.meta.dirname, '../data/command-failures/misbehave.py')
const KEY = 'sk-command-agent-test-0123456789'

/** Runs the misbehaving program one way under the command agent, with a recorder writing agent.log. */
async function run(how: string, options: { signal?: AbortSignal; command?: string[]; meter?: AgentContext['meter'] } = {}) {
  process.env.AGENTEST_COMMAND_TEST_KEY = KEY
  const dir = mkdtempSync(join(tmpdir(), 'agentest-command-'))
  const recorder = new Recorder(dir, 'task-1', null, [KEY])
  const signal = options.signal ?? new AbortController().signal
  const inner = new FakeComputer('browser')
  const computer = new RecordingComputer(inner, recorder, { maxSteps: 10, signal })
  const context: AgentContext = {
    task: agentTaskOf(TASK, { environment: 'browser', screen: inner.dimensions, maxSteps: 10, timeoutMs: 60_000 }),
    computer: sealComputer(computer),
    signal,
    think: () => {},
    ...(options.meter ? { meter: options.meter } : {}),
    config: AgentConfig.parse({
      name: 'command',
      api_key_env: 'AGENTEST_COMMAND_TEST_KEY',
      options: { command: options.command ?? ['python3', PROGRAM], settings: { how }, exit_grace_ms: 500 },
    }),
  }
  const access: HarnessAccess = harnessAccess({ log: async (text) => void (await recorder.appendText('agent.log', text)) })
  const outcome = commandAgent.run(context, access)
  return { outcome, recorder, inner, log: () => readFileSync(join(dir, 'task-1/agent.log'), 'utf8') }
}

const pids: number[] = []
afterAll(() => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL')
})

describe('a command agent that goes wrong ends with its named outcome', () => {
  test('a crash (killed by a signal) is agent_crash, with its last lines', async () => {
    const { outcome, recorder } = await run('crash')
    const error = await rejection(outcome)
    expect(error).toBeInstanceOf(AgentFailure)
    expect((error as AgentFailure).kind).toBe('agent_crash')
    expect(error.message).toMatch(/^the command agent \(python3 .*misbehave\.py\) was killed by SIGSEGV before it called finish; its last lines:\n {2}working on omnizon-1/)
    // Its step is on record; the served token never reaches a message.
    expect(recorder.steps).toHaveLength(1)
    expect(error.message).not.toMatch(/token [A-Za-z0-9_-]{20}/)
  })

  test('a non-zero exit is agent_exit; a key it prints is scrubbed from its log and its message', async () => {
    const { outcome, log } = await run('leak-key')
    const error = await rejection(outcome)
    expect((error as AgentFailure).kind).toBe('agent_exit')
    expect(error.message).toMatch(/exited with code 3 before it called finish/)
    expect(log()).toMatch(/^err\| my key is \[redacted\]$/m)
    expect(log()).toMatch(/^out\| working on omnizon-1 pid \d+ token \[redacted\]$/m)
    expect(log()).not.toContain(KEY)
  })

  test('an exit with code 0 without finishing is agent_no_finish, and says how to finish', async () => {
    const error = await rejection((await run('no-finish')).outcome)
    expect((error as AgentFailure).kind).toBe('agent_no_finish')
    expect(error.message).toMatch(/exited \(code 0\) without calling finish: end a run with the finish tool or POST \/v1\/finish/)
  })

  test('a program that cannot start is agent_not_started, naming it', async () => {
    const error = await rejection((await run('', { command: ['/nonexistent/agent-binary'] })).outcome)
    expect((error as AgentFailure).kind).toBe('agent_not_started')
    expect(error.message).toBe('the command agent could not start /nonexistent/agent-binary: not found (is it on PATH, or the path right from the project folder?)')
  })

  test('a hang deaf to SIGTERM is stopped when the task is, and the task ends as stopped', async () => {
    const stop = new AbortController()
    const { outcome, log } = await run('hang', { signal: stop.signal })
    await expect.poll(() => log(), { timeout: 10_000 }).toMatch(/working on/)
    const started = Date.now()
    stop.abort(new Error('the task timed out after 60 s'))
    await expect(outcome).rejects.toBeInstanceOf(TaskAbortedError)
    expect(Date.now() - started).toBeLessThan(5_000)
    const pid = Number(/pid (\d+)/.exec(log())![1])
    pids.push(pid)
    expect(alive(pid)).toBe(false)
  })

  test('the tokens and the model it names when it finishes are metered', async () => {
    const metered: Array<[number | null | undefined, number | null | undefined] | string> = []
    const { outcome } = await run('usage', { meter: { addTokens: (input, output) => void metered.push([input, output]), setModel: (model) => void metered.push(model) } })
    await expect(outcome).resolves.toEqual({ answer: 'done' })
    expect(metered).toEqual(['my-model-2026', [1200, 34]])
  })

  test('what it left running is stopped after it finished', async () => {
    const { outcome, log } = await run('leave-child')
    await expect(outcome).resolves.toEqual({ answer: 'done' })
    const child = Number(/child (\d+)/.exec(log())![1])
    pids.push(child)
    await expect.poll(() => alive(child), { timeout: 5_000 }).toBe(false)
  })

  test('it gets the task, the endpoints and its key, and nothing else of the host\'s environment', async () => {
    process.env.AGENTEST_UNRELATED_SECRET = 'grader-key-value'
    const { outcome } = await run('env')
    const names: string[] = JSON.parse((await outcome).answer!)
    expect(names).toEqual(expect.arrayContaining(['AGENTEST_GOAL', 'AGENTEST_TASK', 'AGENTEST_MCP_URL', 'AGENTEST_API_URL', 'AGENTEST_TOKEN', 'AGENTEST_MAX_STEPS', 'AGENTEST_COMMAND_TEST_KEY', 'PATH']))
    expect(names).not.toContain('AGENTEST_UNRELATED_SECRET')
  })
})
