import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { foreignValues, loadRealTasks, planCase, rubricProblems, type CasePlan } from '../../fixtures/apps/omnizon/real/index.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { runBenchmark, UNREAD_STEPS, type BenchmarkRun } from '../e2e/run-benchmark.ts'
import { startScriptedGrader } from '../grader/scripted-grader.ts'
import { UPSTREAM_RUBRIC_RULES } from './upstream-rubric-facts.ts'

/**
 * REAL's own Omnizon task files (agi-inc/agisdk, v1 and v2, unchanged; see SOURCES.txt beside
 * them), run through agentest's loader: every case runs faithfully or is skipped with the reason.
 * They live outside the repository: AGENTEST_UPSTREAM names the folder (default /work/shared/upstream).
 */
const UPSTREAM = resolve(process.env.AGENTEST_UPSTREAM || '/work/shared/upstream')
const V1 = join(UPSTREAM, 'real/v1/tasks')
const V2 = join(UPSTREAM, 'real/v2/tasks')
const PRESENT = existsSync(V1) && existsSync(V2)
if (!PRESENT) console.warn(`test/real/upstream-fidelity.test.ts: skipped: REAL's upstream files are not at ${UPSTREAM}/real/v1 and v2 (set AGENTEST_UPSTREAM)`)
const SOLUTIONS = 'fixtures/real-tasks/upstream-v1-solutions.ts'
const TASK_FILE = 'tasks/real/real.task.ts'

const plansOf = (folder: string) => (PRESENT ? loadRealTasks(folder).map(planCase) : [])
const v1 = plansOf(V1)
const v2 = plansOf(V2)
const runnable = v1.filter((plan) => plan.skip === null)
const ids = (plans: CasePlan[]) => plans.map((plan) => plan.realId).sort()

async function runV1(agent: string, env: Record<string, string> = {}): Promise<BenchmarkRun> {
  const grader = await startScriptedGrader({ rules: UPSTREAM_RUBRIC_RULES })
  try {
    return await runBenchmark([TASK_FILE], { ...grader.env, ...env, AGENTEST_AGENT: agent, AGENTEST_REAL_TASKS: V1, AGENTEST_REAL_SOLUTIONS: SOLUTIONS })
  } finally {
    await grader.close()
  }
}

const byId = (run: BenchmarkRun) => new Map<string, TestCaseRun>(run.results.map((result) => [result.id, result]))

describe.skipIf(!PRESENT)(`REAL's own Omnizon tasks on agentest (skipped without ${V1} and ${V2}; set AGENTEST_UPSTREAM)`, { timeout: 600_000 }, () => {
  test('v1: 10 load, 3 run; the 7 whose checks a right run cannot pass are skipped, each with its reason', () => {
    expect(v1).toHaveLength(10)
    expect(ids(runnable)).toEqual(['omnizon-10', 'omnizon-3', 'omnizon-5'])
    const skip = Object.fromEntries(v1.map((plan) => [plan.realId, plan.skip]))
    // REAL's product ids: its catalog is not agentest's (p001-p201).
    for (const [id, values] of Object.entries({ 'omnizon-2': '"21", "22", "23"', 'omnizon-4': '"15", "61"', 'omnizon-6': '"22"', 'omnizon-8': '"51"', 'omnizon-9': '"16"' })) {
      expect(skip[id], id).toContain(`jmespath expects ${values} at orderDetailsDiff.added."0".order.cart[].id: not a product id of agentest's catalog (p001-p201): REAL's ids name REAL's own products`)
    }
    expect(skip['omnizon-2']).toContain("goal: adds to the cart, then uses Buy Now: REAL's Buy Now checks out the cart together with the item, agentest's the item alone")
    expect(skip['omnizon-1']).toContain('evals[0] llm_boolean rubric names "VILVA" (in "VILVA Portable-Monitor-for-Laptop"): no product, brand or category of agentest\'s catalog has it')
    expect(skip['omnizon-7']).toContain('evals[0] llm_boolean rubric names "SAMSUNG Galaxy Z Fold" with the Video Games & Gaming category, but agentest\'s catalog has it only in Smartphones (p002)')
    // One line each, beginning with what kind of problem it is.
    for (const plan of v1.filter((p) => p.skip !== null)) expect(plan.skip, plan.realId).toMatch(/^checks a right run on agentest cannot pass in \S+\.json: [^\n]+$/)
  })

  test('v2: 10 load, none runs: each is graded by a Python script over REAL\'s own state', () => {
    expect(v2).toHaveLength(10)
    for (const plan of v2) expect(plan.skip, plan.realId).toMatch(/^unmapped REAL evals in \S+: evals\[0\] script `eval_omnizon_\d+\.py`: a v2 script grades REAL's own state/)
  })

  test('no runnable case expects a value outside agentest\'s catalog, or a rubric naming what it lacks', () => {
    for (const plan of runnable) {
      expect(plan.unmapped, plan.realId).toEqual([])
      for (const spec of plan.state) expect(foreignValues(spec.query, spec.expected), `${plan.realId} ${spec.name}`).toEqual([])
      for (const check of plan.checks) expect(rubricProblems(String(check.value)), plan.realId).toEqual([])
    }
    // What the runnable ones expect, stated: REAL's v1 omnizon-10 wants the most the shop allows and its last date.
    expect(v1.find((plan) => plan.realId === 'omnizon-10')!.state.map((spec) => spec.expected)).toEqual([30, 'Monday, Jul 21'])
  })

  test('under the oracle (fixtures/real-tasks/upstream-v1-solutions.ts) the 3 runnable pass, every check run and passed; the 7 are skipped', async () => {
    const run = await runV1('oracle')
    expect(run.code, run.stderr + run.stdout.slice(-3000)).toBe(0)
    const results = byId(run)
    expect([...results.keys()].sort()).toEqual(v1.map((plan) => plan.id).sort())
    for (const plan of runnable) {
      const result = results.get(plan.id)!
      expect(result.status, `${plan.id}: ${result.error?.message}`).toBe('passed')
      expect(result.check_results.map((check) => check.check)).toEqual([...plan.state.map((spec) => spec.name), ...plan.checks.map(() => expect.stringMatching(/^answer: /))])
      expect(result.check_results.every((check) => check.passed)).toBe(true)
    }
    for (const plan of v1.filter((p) => p.skip !== null)) {
      expect(results.get(plan.id), plan.id).toMatchObject({ status: 'skipped', trajectory: [], check_results: [], error: { kind: 'skipped', message: plan.skip } })
      expect(run.stdout + run.stderr).toContain(`REAL: ${plan.id} is skipped: ${plan.skip}`)
    }
    expect(run.summary?.totals).toMatchObject({ total: 10, passed: 3, skipped: 7, failed: 0, error: 0 })
  })

  test('under nop the 3 runnable fail, each on a check it ran', async () => {
    const run = await runV1('nop')
    expect(run.code).toBe(1)
    const results = byId(run)
    for (const plan of runnable) {
      const result = results.get(plan.id)!
      expect(result.status, plan.id).toBe('failed')
      expect(result.check_results.length, plan.id).toBe(plan.state.length + plan.checks.length)
      expect(result.check_results.some((check) => !check.passed), plan.id).toBe(true)
    }
    expect(run.summary?.totals).toMatchObject({ passed: 0, failed: 3, skipped: 7 })
  })

  test('every near miss fails but one: REAL\'s omnizon-10 checks pass the same order placed twice', async () => {
    const run = await runV1('near-miss', UNREAD_STEPS)
    const variants = run.results.filter((result) => result.variant !== null && result.status !== 'skipped')
    expect(variants.length).toBeGreaterThanOrEqual(runnable.length)
    // Its evals read only the first order ("0"): REAL's grader passes a duplicate too, and agentest
    // runs REAL's checks as they are (docs/real-tasks.md says so). Any other pass is a fault here.
    expect(variants.filter((result) => result.status !== 'failed').map((result) => `${result.id} [${result.variant}]: ${result.status}`)).toEqual(['real-omnizon-10 [duplicate]: passed'])
  })
})
