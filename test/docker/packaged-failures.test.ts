import { afterAll, describe, expect, test } from 'vitest'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { filesHolding } from '../agents/benchmark-helpers.ts'
import { runBenchmark, type BenchmarkRun } from '../e2e/run-benchmark.ts'
import { runScript } from '../grader/run-script.ts'
import { noDocker } from './docker-available.ts'
import { runContainers } from './run-containers.ts'

/**
 * What the author of a packaged agent is told when it goes wrong, on a real engine over real
 * HTTP: test/data/packaged-agents/server.py breaks in one way per spec (a test double), and each
 * run's record, console and `npm run agent:check` must say what happened and what to change.
 */
const CONFIG = { AGENTEST_CONFIG: 'test/data/packaged-agents.config.yaml' }
const HELLO = 'tasks/desktop/terminal-hello.task.ts'
const KEY = 'sk-packaged-failures-SECRET-4b2e9f'
const runs: BenchmarkRun[] = []

async function image(spec: string, tasks: string[], extra: Record<string, string> = {}): Promise<{ run: BenchmarkRun; seconds: number }> {
  const started = Date.now()
  const run = await runBenchmark(tasks, { ...CONFIG, AGENTEST_AGENT: 'image', AGENTEST_AGENT_SPEC: spec, OPENAI_API_KEY: KEY, ...extra })
  runs.push(run)
  return { run, seconds: (Date.now() - started) / 1000 }
}

function resultOf(run: BenchmarkRun, id: string): TestCaseRun {
  const result = run.results.find((r) => r.id === id)
  if (!result) throw new Error(`no record of ${id}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`)
  return result
}

/** What the run showed on the console. */
const shown = (run: BenchmarkRun) => run.stdout + run.stderr

afterAll(() => {
  // The agents print the key in their logs: it is scrubbed from everything written and shown.
  expect(filesHolding(KEY, runs)).toEqual([])
  for (const run of runs) expect(shown(run)).not.toContain(KEY)
})

describe.skipIf(noDocker)('a packaged agent that goes wrong says how', { timeout: 600_000 }, () => {
  test('a server that dies mid-run: its exit code and last log lines, once; agent:check stops at that check', async () => {
    // With a model endpoint set, the run starts without the warning about one.
    const { run } = await image('packaged-dies', [HELLO], { AGENTEST_BASE_URL: 'http://127.0.0.1:9/v1', AGENTEST_MODEL: 'scripted' })
    const result = resultOf(run, 'desktop-terminal-hello')
    expect(result.status, shown(run).slice(-3000)).toBe('error')
    expect(result.error?.kind).toBe('agent_error')
    expect(result.error?.message).toMatch(/^the agent server exited with code 137 mid-run; its last log lines:\n {2}\| /)
    expect(result.error?.message).toContain('  | broken-agent: fatal: out of memory in the model client')
    expect(result.error?.message).toContain('calling the model with key [redacted]')
    expect(shown(run)).toContain('agent_error: the agent server exited with code 137 mid-run')
    expect(shown(run)).not.toContain('has no model endpoint')
    expect(await runContainers(result.run_id, run.pid)).toEqual([])

    const check = await runScript('agent-check.ts', ['test/data/packaged-agents/packaged-dies.agent.yaml'], { OPENAI_API_KEY: KEY })
    expect(check.code, check.stdout + check.stderr).toBe(1)
    // One failed check, saying the server died; none of the follow-on failures it would cause.
    expect(check.stdout.match(/^✗ /gm)).toHaveLength(1)
    expect(check.stdout).toMatch(/^✗ run stream: the agent server exited with code 137 during the "run stream" check; its last log lines:$/m)
    expect(check.stdout).toContain('  | broken-agent: fatal: out of memory in the model client')
    expect(check.stdout).toMatch(/^✓ bad request: /m)
    expect(check.stdout).toContain(
      'fails 1 of 4 checks: run stream; stopped: the agent server died during the "run stream" check, so the checks after it (max_steps, screenshots, cancel, cancelled, unknown run) were not run',
    )
    expect(check.stdout + check.stderr).not.toContain(KEY)
  })

  test('an agent that ignores its cancel times out naming the task\'s time limit and that it did not stop', async () => {
    const { run } = await image('packaged-ignores-cancel', [HELLO], { AGENTEST_TASK_TIMEOUT_MS: '20000', AGENTEST_MAX_STEPS: '1000' })
    const result = resultOf(run, 'desktop-terminal-hello')
    expect(result.status, shown(run).slice(-3000)).toBe('timeout')
    expect(result.agent_status).toBe('timeout')
    expect(result.error?.kind).toBe('timeout')
    const message = result.error!.message
    expect(message).toMatch(/^Task timed out in 20000ms \(its limit: run\.task_timeout_ms in agentest\.config\.yaml \(AGENTEST_TASK_TIMEOUT_MS\), or the task's own timeout_ms\); /)
    expect(message).toMatch(
      /; the agent did not stop when cancelled: DELETE \/v1\/runs\/desktop-terminal-hello-[0-9a-f]{8} answered 200, but its stream went on for 5 s \(\d+ more step event\(s\)\) with no final "cancelled" event, and agentest closed it/,
    )
    expect(message).not.toContain('testTimeout')
    // The console says the same, not Vitest's advice to raise its testTimeout.
    expect(shown(run)).toContain('Task timed out in 20000ms (its limit: run.task_timeout_ms')
    expect(shown(run)).not.toContain('testTimeout')
    expect(await runContainers(result.run_id, run.pid)).toEqual([])
  })

  test('an agent that stops when cancelled times out with the time limit alone', async () => {
    const { run } = await image('packaged-honours-cancel', [HELLO], { AGENTEST_TASK_TIMEOUT_MS: '15000', AGENTEST_MAX_STEPS: '1000' })
    const result = resultOf(run, 'desktop-terminal-hello')
    expect(result.status, shown(run).slice(-3000)).toBe('timeout')
    expect(result.error).toEqual({
      kind: 'timeout',
      message: "Task timed out in 15000ms (its limit: run.task_timeout_ms in agentest.config.yaml (AGENTEST_TASK_TIMEOUT_MS), or the task's own timeout_ms)",
    })
    expect(await runContainers(result.run_id, run.pid)).toEqual([])
  })

  test('a server that exits at start is the agent\'s fault, said at once with its exit code; the run warns it has no model endpoint; a browser task\'s skip is on the console', async () => {
    const { run, seconds } = await image('packaged-exits', [HELLO, 'tasks/omnizon/omnizon-1.task.ts'])
    const result = resultOf(run, 'desktop-terminal-hello')
    expect(result.status, shown(run).slice(-3000)).toBe('error')
    expect(result.agent_status).toBe('not_run')
    expect(result.error).toEqual({
      kind: 'agent_start',
      message: 'the agent server exited with code 3 before answering GET /health; its last log lines:\n  | broken-agent: reading /home/agent/agent.toml\n  | broken-agent: error: /home/agent/agent.toml: no such file',
    })
    // Not retried as the machine's fault, nor waited on until the spec's 60 s health timeout.
    expect(result.retries).toEqual([])
    expect(seconds).toBeLessThan(60)
    expect(run.summary?.totals.faulted).toBe(0)
    expect(run.stdout).toContain('faults in the rates (the agent\'s doing): agent_start 1')

    const warning =
      'agentest: warning: the packaged agent packaged-exits:0.1.0 has no model endpoint (its run requests say model.base_url and model.name: null): set agent.base_url and agent.model in agentest.config.yaml (or AGENTEST_BASE_URL and AGENTEST_MODEL)'
    expect(shown(run).split('\n').filter((line) => line === warning)).toHaveLength(1)

    const browser = resultOf(run, 'omnizon-1')
    expect(browser.status).toBe('skipped')
    const skipped = 'agentest: skipped omnizon-1: the packaged agent packaged-exits:0.1.0 acts in its own desktop container (spec.computer: own-desktop); omnizon-1 is a browser task'
    expect(shown(run).split('\n').filter((line) => line === skipped)).toHaveLength(1)
    expect(await runContainers(result.run_id, run.pid)).toEqual([])
  })

  test('a server that listens on 127.0.0.1 in its container is told to listen on 0.0.0.0, at once', async () => {
    const { run, seconds } = await image('packaged-loopback', [HELLO], { AGENTEST_BASE_URL: 'http://127.0.0.1:9/v1' })
    const result = resultOf(run, 'desktop-terminal-hello')
    expect(result.status, shown(run).slice(-3000)).toBe('error')
    expect(result.error?.kind).toBe('agent_start')
    expect(result.error?.message).toMatch(
      /^the agent server listens on 127\.0\.0\.1:8000 inside its container; listen on 0\.0\.0\.0 \(all interfaces\): agentest reaches it through the container's published port \(GET \/health: [^)]+\); its last log lines:\n {2}\| broken-agent: listening on 127\.0\.0\.1:8000 \(loopback\)$/,
    )
    expect(result.retries).toEqual([])
    expect(seconds).toBeLessThan(60)
    // A model endpoint without a model name is no reason to warn: the agent may have its own default.
    expect(shown(run)).not.toContain('has no model endpoint')
    expect(await runContainers(result.run_id, run.pid)).toEqual([])
  })
})
