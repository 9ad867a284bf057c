import { afterAll, describe, expect, test } from 'vitest'
import { replayPolicy, startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import { E2E_KEY, filesHolding } from '../agents/benchmark-helpers.ts'
import { noDocker } from '../docker/docker-available.ts'
import { runContainers } from '../docker/run-containers.ts'
import { runBenchmark, type BenchmarkRun } from './run-benchmark.ts'

/**
 * Packaged agents evaluated the way the README shows: AGENTEST_AGENT=image with a spec. The
 * scripted model server (a test double) listens on 127.0.0.1 only, as Ollama does, and the
 * containers reach it through the harness's relay; it serves the oracle's recorded actions; the agents act in their own containers, and the
 * tasks' checks run there afterwards.
 */
const TASKS = ['tasks/desktop/editor-note.task.ts', 'tasks/desktop/terminal-hello.task.ts']
const servers: ModelServer[] = []
const runs: BenchmarkRun[] = []

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

function imageEnv(spec: string, server: ModelServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    AGENTEST_AGENT: 'image',
    AGENTEST_AGENT_SPEC: spec,
    AGENTEST_MODEL: 'scripted-desktop-model',
    AGENTEST_BASE_URL: server.url,
    OPENAI_API_KEY: E2E_KEY,
    ...extra,
  }
}

describe.skipIf(noDocker)('packaged agents in a benchmark run', { timeout: 900_000 }, () => {
  test('the computer-use image and the Python image solve desktop tasks through a model server bound to 127.0.0.1 only; their checks pass in the same container', async () => {
    const oracle = await runBenchmark(TASKS, { AGENTEST_AGENT: 'oracle' })
    expect(oracle.results.map((r) => r.status)).toEqual(['passed', 'passed'])
    const server = await startModelServer({ policy: replayPolicy(oracle.results) })
    servers.push(server)

    for (const spec of ['cua-node:0.1.0', 'minimal-python']) {
      const run = await runBenchmark(TASKS, imageEnv(spec, server))
      runs.push(run)
      expect(run.code, `${spec}: ${run.stderr}${run.stdout.slice(-3000)}`).toBe(0)
      expect(run.results).toHaveLength(2)
      for (const result of run.results) {
        expect(result.status, `${spec} ${result.id}: ${result.error?.message}`).toBe('passed')
        expect(result.agent_yaml).toContain(`spec: ${spec}`)
        expect(result.agent_model).toBe('scripted-desktop-model')
        expect(result.input_tokens).toBeGreaterThan(0)
        expect(result.trajectory.length).toBeGreaterThan(0)
        expect(result.trajectory.filter((s) => s.action.type !== 'message').every((s) => s.screenshot !== null)).toBe(true)
        expect(result.command_output_check_results.length).toBeGreaterThan(0)
      }
      expect(await runContainers(run.results[0]?.run_id, run.pid)).toEqual([])
    }
    expect(server.requests.some((call) => call.endpoint === 'responses')).toBe(true)
    expect(server.requests.some((call) => call.endpoint === 'chat')).toBe(true)
    // The key went into the containers as a secret, and nowhere under runs/.
    expect(server.requests.every((call) => call.headers.authorization === `Bearer ${E2E_KEY}`)).toBe(true)
    expect(filesHolding(E2E_KEY, runs)).toEqual([])
  })

  test('a task that times out cancels the packaged agent, ends as a timeout and leaves no container', async () => {
    const server = await startModelServer({ policy: () => ({ fault: 'hang' }) })
    servers.push(server)
    const run = await runBenchmark([TASKS[0]!], imageEnv('cua-node', server, { AGENTEST_TASK_TIMEOUT_MS: '25000' }))
    runs.push(run)
    const [result] = run.results
    expect(result?.status, run.stdout.slice(-2000)).toBe('timeout')
    expect(result?.agent_status).toBe('timeout')
    expect(server.requests.length).toBeGreaterThan(0)
    expect(server.requests.every((call) => call.aborted)).toBe(true)
    expect(await runContainers(result?.run_id, run.pid)).toEqual([])
  })

  test('a browser task is skipped with the reason, and a bad spec is one line', async () => {
    const server = await startModelServer({ policy: [] })
    servers.push(server)
    const browser = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts'], imageEnv('minimal-python', server))
    expect(browser.results[0]?.status).toBe('skipped')
    expect(browser.results[0]?.error?.message ?? browser.stdout).toContain('minimal-python:0.1.0 acts in its own desktop container (spec.computer: own-desktop); omnizon-1 is a browser task')
    const unknown = await runBenchmark([TASKS[0]!], imageEnv('nobody:1.0.0', server))
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim()).toBe('agentest: AGENTEST_AGENT_SPEC: unknown agent image "nobody" (known: cua-node, mcp-node, minimal-python)')
  })
})
