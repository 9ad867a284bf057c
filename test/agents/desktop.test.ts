import { afterAll, describe, expect, test } from 'vitest'
import { anthropicReplayPolicy, replayPolicy, startAnthropicServer, startModelServer, type AnthropicServer, type ModelServer } from '../../fixtures/model-server/index.ts'
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
let anthropic: AnthropicServer | null = null

afterAll(async () => {
  await server?.close()
  await anthropic?.close()
})

describe.skipIf(noDocker)('model agents on a desktop, end to end', { timeout: 600_000 }, () => {
  test('openai-cua, openai-chat and anthropic-cu each solve desktop tasks from served oracle actions', async () => {
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

    // Claude's loop under both tool versions, its keys sent in xdotool syntax and mapped back.
    for (const [version, model] of [['20250124', 'claude-sonnet-4-5'], ['20251124', 'claude-opus-4-5']] as const) {
      await anthropic?.close()
      anthropic = await startAnthropicServer({ policy: anthropicReplayPolicy(oracle.results, { toolVersion: version }) })
      const run = await runBenchmark(TASKS, agentEnv({ name: 'anthropic-cu' }, anthropic.url, { AGENTEST_MODEL: model }))
      runs.push(run)
      expect(run.code, `anthropic-cu ${version}: ${run.stderr}${run.stdout.slice(-2000)}`).toBe(0)
      for (const result of run.results) {
        expect(result.status, `anthropic-cu ${version} ${result.id}: ${result.error?.message}`).toBe('passed')
        const acted = (r: (typeof run.results)[number]) => r.trajectory.map((step) => step.action.type).filter((type) => type !== 'message')
        expect(acted(result)).toEqual(acted(oracle.results.find((r) => r.id === result.id)!))
      }
      expect(anthropic.requests.every((call) => call.status === 200 && call.betas.join() === `computer-use-${version.slice(0, 4)}-${version.slice(4, 6)}-${version.slice(6)}`)).toBe(true)
      expect(anthropic.requests[0]!.body.tools).toHaveLength(1)
    }
    expect(filesHolding(E2E_KEY, runs)).toEqual([])
  })
})
