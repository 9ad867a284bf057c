import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import { ROOT, runBenchmark } from './run-benchmark.ts'

/** A config file for one run, in a fresh folder. */
function configFile(config: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'agentest-limits-')), 'agentest.config.yaml')
  writeFileSync(file, stringify(config))
  return file
}

const KEY = { OPENAI_API_KEY: 'sk-limits-test-not-secret' }

describe('token and cost limits end a task, and a spent run starts no new task', { timeout: 180_000 }, () => {
  let model: ModelServer
  beforeAll(async () => {
    // A test double of the Chat Completions API: every call answers, at 600 prompt tokens.
    model = await startModelServer({ policy: () => ({ answer: 'I could not find it.', usage: { input_tokens: 600, output_tokens: 10 } }) })
  })
  afterAll(() => model.close())

  const chat = (limits: object, prices: object = {}) =>
    configFile({ agent: { name: 'openai-chat', model: 'scripted', base_url: model.url, options: { retries: 0 } }, prices, limits })

  test('a model call past the task limit ends it as token_limit, not passed', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts'], { ...KEY, AGENTEST_CONFIG: chat({ task_tokens: 500 }) })
    expect(run.stdout).toContain('limits 500 tokens/task')
    const [record] = run.results
    expect(record).toMatchObject({ status: 'error', agent_status: 'error', input_tokens: 600, output_tokens: 10 })
    expect(record?.error).toEqual({ kind: 'token_limit', message: 'the task used 610 agent tokens, over its limit of 500 (limits.task_tokens)' })
    expect(record?.final_answer).toBeNull()
    expect(run.summary?.totals).toMatchObject({ passed: 0, error: 1 })
  })

  test('a cost limit, at the price table rate', async () => {
    const prices = { scripted: { input: 10, output: 10 } }
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts'], { ...KEY, AGENTEST_CONFIG: chat({ task_cost_usd: 0.005 }, prices) })
    expect(run.results[0]?.error).toEqual({ kind: 'cost_limit', message: "the task spent $0.0061 on the agent's model, over its limit of $0.005 (limits.task_cost_usd)" })
  })

  test('an agent that swallows the error and acts on is refused, and its answer is not taken', async () => {
    const config = configFile({ agent: { name: 'overspend' }, agents: { overspend: join(ROOT, 'test/data/agents/overspend.ts') }, limits: { task_tokens: 1000 } })
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts'], { AGENTEST_CONFIG: config })
    const [record] = run.results
    expect(record?.error?.kind).toBe('token_limit')
    expect(record?.status).toBe('error')
    expect(record?.final_answer).toBeNull()
    // One scroll before the second report took it past 1000; every action after it was refused.
    expect(record?.trajectory.map((s) => s.action.type)).toEqual(['scroll'])
    // Its later reports still count: they are what it spent.
    expect(record?.input_tokens).toBe(3000)
  })

  test('once the run limit is passed, the remaining tasks are recorded as not run', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts', 'tasks/omnizon/omnizon-2.task.ts', 'tasks/omnizon/omnizon-3.task.ts', '--maxWorkers=1'], {
      ...KEY,
      AGENTEST_CONFIG: chat({ run_tokens: 1000 }),
    })
    const statuses = run.results.map((r) => [r.status, r.error?.kind]).sort()
    // Two tasks ran (610 tokens each: the second took the run past 1000); the third did not start.
    expect(statuses).toEqual([['failed', 'check_failed'], ['failed', 'check_failed'], ['skipped', 'run_limit']])
    const notRun = run.results.find((r) => r.status === 'skipped')
    expect(notRun).toMatchObject({ agent_status: 'not_run', input_tokens: 0, trajectory: [] })
    expect(notRun?.error?.message).toBe('the run used 1220 agent tokens, over its limit of 1000 (limits.run_tokens)')
    expect(run.stdout).toContain('agentest: the run used 1220 agent tokens, over its limit of 1000 (limits.run_tokens): 1 task was not run (run_limit)')
  })
})
