import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { describeUnmapped, loadRealTasks, planCase } from '../../fixtures/apps/omnizon/real/index.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { ROOT, runBenchmark, UNREAD_STEPS, variantsRecordedWithoutStepShots, type BenchmarkRun } from '../e2e/run-benchmark.ts'
import { startScriptedGrader } from '../grader/scripted-grader.ts'
import { REAL_RUBRIC_RULES } from './rubric-facts.ts'

const TASK_FILE = 'tasks/real/real.task.ts'
const FOLDER = 'fixtures/real-tasks'
const plans = loadRealTasks(join(ROOT, FOLDER)).map(planCase)
const runnable = plans.filter((plan) => plan.skip === null)
const unmapped = plans.filter((plan) => plan.unmapped.length > 0)

/** tasks/real under `agent`, its llm_boolean rubrics judged by the scripted grader on the catalog's facts. */
async function runReal(agent: string, folder = FOLDER, env: Record<string, string> = {}): Promise<BenchmarkRun> {
  const grader = await startScriptedGrader({ rules: REAL_RUBRIC_RULES })
  try {
    const run = await runBenchmark([TASK_FILE], { ...grader.env, ...env, AGENTEST_AGENT: agent, AGENTEST_REAL_TASKS: folder })
    // One file declares every case: the harness's id rule must allow `real-*` ids in tasks/real/real.task.ts.
    expect(run.stderr, 'the task file did not load').not.toMatch(/agentTest\(\): id: .* differs from the file name/)
    return run
  } finally {
    await grader.close()
  }
}

const byId = (run: BenchmarkRun) => new Map<string, TestCaseRun>(run.results.map((result) => [result.id, result]))

describe('REAL task files on agentest\'s Omnizon, end to end', { timeout: 600_000 }, () => {
  test('the fixtures: at least 6 Omnizon cases, 3 with state evals, 2 with rubrics, exactly one that does not map', () => {
    expect(plans.length).toBeGreaterThanOrEqual(6)
    expect(plans.every((plan) => plan.omnizon)).toBe(true)
    expect(runnable.filter((plan) => plan.state.length > 0).length).toBeGreaterThanOrEqual(3)
    expect(runnable.filter((plan) => plan.checks.length > 0).length).toBeGreaterThanOrEqual(2)
    expect(unmapped.map((plan) => plan.id)).toEqual(['real-omnizon-kettle-minicart'])
  })

  test('under the oracle every mappable case passes, each eval a passed check; the unmapped one is skipped with its evals named', async () => {
    const run = await runReal('oracle')
    expect(run.code, run.stderr + run.stdout.slice(-3000)).toBe(0)
    const results = byId(run)
    expect([...results.keys()].sort()).toEqual(plans.map((plan) => plan.id).sort())
    for (const plan of runnable) {
      const result = results.get(plan.id)!
      expect(result.status, `${plan.id}: ${result.error?.message}`).toBe('passed')
      expect(result.task).toBe(plan.goal)
      expect([result.difficulty, result.challenge_type]).toEqual([plan.difficulty ?? null, plan.challenge_type ?? null])
      // One check per eval: the state evals by name, then each rubric judged (and scored) by the grader.
      expect(result.check_results.map((check) => check.check)).toEqual([...plan.state.map((spec) => spec.name), ...plan.checks.map(() => expect.stringMatching(/^answer: /))])
      expect(result.check_results.every((check) => check.passed && check.score === 1)).toBe(true)
      expect(result.checks).toEqual(plan.checks)
    }
    const [skipped] = unmapped
    const record = results.get(skipped!.id)!
    // On record as skipped, without a sandbox: no steps, no checks, the reason in error.
    expect(record).toMatchObject({ status: 'skipped', agent_status: 'not_run', trajectory: [], check_results: [], error: { kind: 'skipped' } })
    expect(record.error?.message).toBe(describeUnmapped(skipped!.unmapped).replace(`${ROOT}/`, ''))
    expect(record.error?.message).toMatch(/evals\[1\] jmespath `initialfinaldiff\.updated\.miniCart\.justAdded`: .*\| evals\[2\] script `eval_omnizon_kettle\.py`/)
    // The console says it too.
    expect(run.stdout + run.stderr).toContain(`REAL: ${skipped!.id} is skipped: unmapped REAL evals in ${FOLDER}/omnizon-kettle-minicart.json`)
    expect(run.summary?.totals).toMatchObject({ total: plans.length, passed: runnable.length, skipped: 1, failed: 0, error: 0 })
  })

  test('under nop every mappable case fails; the unmapped one is still skipped, never passed', async () => {
    const run = await runReal('nop')
    expect(run.code).toBe(1)
    const results = byId(run)
    for (const plan of runnable) {
      const result = results.get(plan.id)!
      expect(result.status, plan.id).toBe('failed')
      expect(result.check_results.some((check) => !check.passed), plan.id).toBe(true)
    }
    expect(results.get(unmapped[0]!.id)?.status).toBe('skipped')
    expect(run.summary?.totals).toMatchObject({ passed: 0, failed: runnable.length, skipped: 1 })
  })

  test('every near miss (declared and generated) fails and every alternative passes', async () => {
    for (const [agent, expected] of [['near-miss', 'failed'], ['alternative', 'passed']] as const) {
      // As in the gates: REAL's rubrics are answer checks, judged on the answer and the final
      // screen, so the variants keep no step screenshots (the near misses took 319 of them).
      const run = await runReal(agent, FOLDER, UNREAD_STEPS)
      const variants = run.results.filter((result) => result.variant !== null)
      expect(variantsRecordedWithoutStepShots(variants.filter((result) => result.status !== 'skipped')), agent).toBe(true)
      if (agent === 'near-miss') expect(variants.length, 'each case has near misses').toBeGreaterThanOrEqual(runnable.length)
      const wrong = variants.filter((result) => result.status !== expected && result.status !== 'skipped')
      expect(wrong.map((result) => `${result.id} [${result.variant}]: ${result.status} ${result.error?.message ?? ''}`)).toEqual([])
    }
  })

  test("a user's folder: no solutions.ts, so the oracle has nothing to replay (an error, not a pass); another website's case is skipped", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-real-user-'))
    copyFileSync(join(ROOT, FOLDER, 'omnizon-tent-two.json'), join(dir, 'omnizon-1.json'))
    const other = JSON.parse(readFileSync(join(ROOT, FOLDER, 'omnizon-tent-two.json'), 'utf8'))
    writeFileSync(join(dir, 'dashdish-1.json'), JSON.stringify({ ...other, id: 'dashdish-1', website: { id: 'dashdish', name: 'DashDish' } }))
    const run = await runReal('oracle', dir)
    expect(run.code).toBe(1)
    const results = byId(run)
    expect(results.get('real-omnizon-1')).toMatchObject({ status: 'error', error: { message: expect.stringMatching(/has no reference solution/) } })
    expect(results.get('real-dashdish-1')).toMatchObject({
      status: 'skipped',
      app: null,
      error: { kind: 'skipped', message: 'website "dashdish": agentest has no clone of it (it runs REAL\'s omnizon tasks only)' },
    })
  })
})
