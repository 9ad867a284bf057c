import { afterAll, describe, expect, test } from 'vitest'
import { replayPolicy, startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import { noDocker } from '../docker/docker-available.ts'
import { runBenchmark, type BenchmarkRun } from '../e2e/run-benchmark.ts'
import { agentEnv, E2E_KEY, filesHolding } from './benchmark-helpers.ts'

/**
 * The model agents on a Linux desktop: the oracle's recorded keyboard actions in a Docker
 * sandbox are served back by the scripted server (a test double), and the task's own checks in
 * the container decide. The computer tool says environment "linux" and sends no current_url.
 */
const TASKS = ['tasks/desktop/editor-note.task.ts', 'tasks/desktop/terminal-hello.task.ts']
const runs: BenchmarkRun[] = []
let server: ModelServer | null = null

afterAll(async () => {
  await server?.close()
})

describe.skipIf(noDocker)('model agents on a desktop, end to end', { timeout: 600_000 }, () => {
  test('openai-cua and openai-chat each solve desktop tasks from served oracle actions', async () => {
    const oracle = await runBenchmark(TASKS, { AGENTEST_AGENT: 'oracle' })
    runs.push(oracle)
    expect(oracle.results.map((r) => r.status)).toEqual(['passed', 'passed'])
    server = await startModelServer({ policy: replayPolicy(oracle.results) })

    for (const agent of [{ name: 'openai-cua' }, { name: 'openai-chat', options: { observation: 'screenshot' } }]) {
      const run = await runBenchmark(TASKS, agentEnv(agent, server.url, { AGENTEST_MODEL: 'scripted-desktop-model' }))
      runs.push(run)
      expect(run.code, `${agent.name}: ${run.stderr}${run.stdout.slice(-2000)}`).toBe(0)
      for (const result of run.results) {
        expect(result.status, `${agent.name} ${result.id}: ${result.error?.message}`).toBe('passed')
        expect(result.agent_yaml).toContain(agent.name)
        expect(result.agent_model).toBe('scripted-desktop-model')
        expect(result.input_tokens).toBeGreaterThan(0)
        expect(result.command_output_check_results.length).toBeGreaterThan(0)
      }
    }
    const cuaCalls = server.requests.filter((call) => call.endpoint === 'responses')
    expect(cuaCalls.length).toBeGreaterThan(0)
    expect(JSON.stringify(cuaCalls[0]?.body)).toContain('"environment":"linux"')
    expect(filesHolding(E2E_KEY, runs)).toEqual([])
  })
})
