import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { byTurn, startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import { agentEnv, E2E_KEY } from '../agents/benchmark-helpers.ts'
import { ROOT, runBenchmark } from './run-benchmark.ts'

/**
 * Reusing results: a task whose check changed is re-checked against the recorded evidence of
 * the earlier run, with no agent step and no model call. The agent is openai-chat against the
 * scripted model server (a test double), so "no model call" is counted, not assumed.
 */
const TASK_FILE = 'test/data/generated/cache-answer.task.ts'
const CONFIG = ['--config', 'test/data/fixture-tasks.vitest.config.ts']

function writeTask(check: string, fixtures = 'run, app, expect'): void {
  // The folder is git-ignored, so a fresh clone does not have it.
  mkdirSync(join(ROOT, dirname(TASK_FILE)), { recursive: true })
  writeFileSync(
    join(ROOT, TASK_FILE),
    `import { agentTest } from 'agentest'

const test = agentTest({
  id: 'cache-answer',
  app: 'omnizon',
  goal: 'Look at the Omnizon home page and tell me which laptop it features.',
  max_steps: 5,
})

test('names the featured laptop', async ({ ${fixtures} }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.newOrders, 'placed no order').toHaveLength(0)
  ${check}
})
`,
  )
}

let server: ModelServer | null = null
afterAll(async () => {
  await server?.close()
})

describe('reusing earlier results', { timeout: 300_000 }, () => {
  test('a changed check re-grades the recorded evidence without an agent step or a model call', async () => {
    server = await startModelServer({
      policy: byTurn([{ thought: 'Scroll to see the page', actions: [{ type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 300 }] }, { answer: 'The MacBook Air 13-inch.' }]),
    })
    const results = mkdtempSync(join(tmpdir(), 'agentest-cache-'))
    const env = { ...agentEnv({ name: 'openai-chat' }, server.url, { AGENTEST_MODEL: 'scripted-model' }), FIXTURE_TASKS: TASK_FILE }
    const run = (extra: Record<string, string> = {}) => runBenchmark(CONFIG, { ...env, ...extra }, undefined, { resultsDir: results })

    writeTask(`expect(answer ?? '', 'names the MacBook Air').toMatch(/MacBook Air/)`)
    const first = await run()
    const [original] = first.results
    expect(original?.status, first.stdout.slice(-2000)).toBe('passed')
    expect(original?.cached).toBe(false)
    const calls = server.requests.length
    expect(calls).toBe(2)
    // The run's settings are kept beside its results, without the key.
    const settings = readFileSync(join(first.runDir!, 'config.yaml'), 'utf8')
    expect(settings).toContain('api_key_env: AGENTEST_E2E_KEY')
    expect(settings).toContain('cache: use')
    expect(settings).not.toContain(E2E_KEY)

    writeTask(`expect(answer ?? '', 'names the ThinkPad').toMatch(/ThinkPad/)`)
    const second = await run()
    const [regraded] = second.results
    expect(server.requests.length, 'no model call').toBe(calls)
    expect(regraded).toMatchObject({ status: 'failed', cached: true, cached_from: original?.run_id, final_answer: 'The MacBook Air 13-inch.' })
    expect(regraded?.trajectory.map((s) => s.action)).toEqual(original?.trajectory.map((s) => s.action))
    expect(regraded?.check_results.map((c) => [c.check, c.passed])).toEqual([
      ['placed no order', true],
      ['names the ThinkPad', false],
    ])
    // Its evidence travelled with it: the run folder stands alone.
    expect(regraded?.final_state).toBe('cache-answer/finish.json')
    expect(second.summary?.totals).toMatchObject({ total: 1, failed: 1 })

    writeTask(`expect(await page.title(), 'the page has a title').not.toBe('')`, 'run, app, page, expect')
    const third = await run()
    expect(server.requests.length).toBe(calls)
    expect(third.results[0]?.status).not.toBe('passed')
    expect(third.results[0]?.error?.message).toContain('has no live browser; checks get its recorded evidence')

    const refreshed = await run({ AGENTEST_CACHE: 'refresh' })
    expect(server.requests.length, 'refresh runs the agent again').toBe(calls + 2)
    expect(refreshed.results[0]).toMatchObject({ status: 'passed', cached: false })

    // rerun-failed reuses passes only; a failed result runs again.
    writeTask(`expect(answer ?? '', 'names the ThinkPad').toMatch(/ThinkPad/)`)
    const failing = await run({ AGENTEST_CACHE: 'rerun-failed' })
    expect(failing.results[0], JSON.stringify(failing.results[0]?.error) + failing.stdout.slice(-1500)).toMatchObject({ status: 'failed', cached: true })
    expect(server.requests.length).toBe(calls + 2)
    const rerun = await run({ AGENTEST_CACHE: 'rerun-failed' })
    expect(rerun.results[0]).toMatchObject({ status: 'failed', cached: false })
    expect(server.requests.length, 'the failed task ran again').toBe(calls + 4)

    // only: nothing new runs; a task without a result (another model here) is skipped.
    const only = await run({ AGENTEST_CACHE: 'only', AGENTEST_MODEL: 'another-model' })
    expect(only.results[0]).toMatchObject({ status: 'skipped', cached: false })
    expect(only.results[0]?.error?.message).toBe('no earlier result to reuse (the cache mode is "only")')
    expect(server.requests.length).toBe(calls + 4)
  })

  test("an edited goal is not served from the cache: the key holds the task's code", async () => {
    // A copy of an Omnizon task, run by the oracle (a browser task: no Docker needed).
    const copy = 'test/data/generated/cache-goal/omnizon-2.task.ts'
    const original = readFileSync(join(ROOT, 'tasks/omnizon/omnizon-2.task.ts'), 'utf8')
    mkdirSync(join(ROOT, dirname(copy)), { recursive: true })
    writeFileSync(join(ROOT, copy), original)
    const results = mkdtempSync(join(tmpdir(), 'agentest-cache-goal-'))
    const run = () => runBenchmark(CONFIG, { FIXTURE_TASKS: copy, AGENTEST_AGENT: 'oracle' }, undefined, { resultsDir: results, grader: false })

    const first = await run()
    expect(first.results[0], first.stdout.slice(-2000)).toMatchObject({ status: 'passed', cached: false })
    const key = first.results[0]!.cache_key!
    expect(key).toMatch(/^omnizon-2\|oracle\|-\|30\|[0-9a-f]{16}\|task:[0-9a-f]{12}\|declared:[0-9a-f]{12}\|agent:[0-9a-f]{12}\|agentest:[0-9a-f]{12}$/)
    const second = await run()
    expect(second.results[0]).toMatchObject({ status: 'passed', cached: true, cached_from: first.results[0]!.run_id, cache_key: key })

    const goal = 'add the first three results to the cart'
    expect(original).toContain(goal)
    writeFileSync(join(ROOT, copy), original.replace(goal, 'put the first three results in the cart'))
    const third = await run()
    expect(third.results[0], third.stdout.slice(-2000)).toMatchObject({ status: 'passed', cached: false })
    const edited = third.results[0]!.cache_key!
    expect(edited).not.toBe(key)
    // Only the task's parts of the key moved: its code and the task as declared.
    const rest = (k: string) => k.replace(/\|task:\w+/, '').replace(/\|declared:\w+/, '')
    expect(edited.replace(/\|task:\w+/, '')).not.toBe(key.replace(/\|task:\w+/, ''))
    expect(rest(edited)).toBe(rest(key))
  })

  test('with the model-call cache, a repeated run sends no model call and replays the same actions', async () => {
    const modelServer = await startModelServer({
      policy: byTurn([{ actions: [{ type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 300 }] }, { actions: [{ type: 'move', x: 100, y: 100 }] }, { answer: 'The MacBook Air 13-inch.' }]),
    })
    try {
      const results = mkdtempSync(join(tmpdir(), 'agentest-model-cache-'))
      const env = {
        // The page as text: a screenshot's pixels can differ between two loads of the same page.
        ...agentEnv({ name: 'openai-chat', options: { observation: 'axtree' } }, modelServer.url, { AGENTEST_MODEL: 'scripted-model' }),
        FIXTURE_TASKS: TASK_FILE,
        AGENTEST_MODEL_CACHE: 'true',
        AGENTEST_CACHE: 'refresh',
      }
      writeTask(`expect(answer ?? '', 'names the MacBook Air').toMatch(/MacBook Air/)`)
      const first = await runBenchmark(CONFIG, env, undefined, { resultsDir: results })
      expect(first.results[0]?.status, first.stdout.slice(-2000)).toBe('passed')
      const calls = modelServer.requests.length
      expect(calls).toBe(3)
      const second = await runBenchmark(CONFIG, env, undefined, { resultsDir: results })
      expect(modelServer.requests.length, 'every reply came from the cache').toBe(calls)
      expect(second.results[0]).toMatchObject({ status: 'passed', cached: false, final_answer: first.results[0]?.final_answer })
      expect(second.results[0]?.trajectory.map((s) => s.action)).toEqual(first.results[0]?.trajectory.map((s) => s.action))
    } finally {
      await modelServer.close()
    }
  })
})
