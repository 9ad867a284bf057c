import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { gateRows, renderGate, variantProblems, type Declared, type GateRuns } from '../../src/validity/gate.ts'
import { declaredVariants } from '../../src/validity/validate.ts'
import { finishOf, ROOT, runBenchmark, taskIds, UNREAD_STEPS, variantsRecordedWithoutStepShots, type BenchmarkRun } from './run-benchmark.ts'

/** The gate's runs: the whole suite, two tasks at a time (it starts beside the desktop gate, which mostly waits). */
const GATE_RUN = ['tasks/omnizon', '--maxWorkers=2']

const ids = taskIds('omnizon')

/**
 * The task-validity gate: oracle passes all, nop and every near miss (declared and generated)
 * fail, every alternative passes, runs are deterministic. Ends with the gate's table.
 */
describe('tasks/omnizon end to end', { timeout: 1_800_000 }, () => {
  let oracle: BenchmarkRun | null = null
  let declared: Declared
  const runs: Partial<GateRuns> = {}
  beforeAll(async () => {
    declared = await declaredVariants(ROOT, ['tasks/omnizon'])
  }, 120_000)

  test('every task passes under the oracle, with a valid record, screenshots and final state', async () => {
    oracle = await runBenchmark(GATE_RUN, { AGENTEST_AGENT: 'oracle' })
    const run = oracle
    runs.oracle = run.results
    expect(run.code, run.stderr + run.stdout.slice(-3000)).toBe(0)
    expect(run.stdout).toContain('agentest: evaluating agent oracle')
    expect(run.stdout).toContain('agentest summary')
    expect(run.results.map((r) => r.id).sort()).toEqual(ids)
    expect(ids.length).toBeGreaterThanOrEqual(30)
    for (const result of run.results) {
      expect(result.status, `${result.id}: ${result.error?.message}`).toBe('passed')
      expect(result.agent_status).toBe('done')
      expect(result.difficulty, result.id).not.toBeNull()
      expect(result.challenge_type, result.id).not.toBeNull()
      expect(result.trajectory.length, result.id).toBeGreaterThan(0)
      expect(result.check_results.length, result.id).toBeGreaterThan(0)
      expect(result.check_results.every((c) => c.passed)).toBe(true)
      for (const step of result.trajectory.filter((s) => s.action.type !== 'message')) {
        expect(step.screenshot, `${result.id} step ${step.index}`).toMatch(/\.png$/)
        expect(existsSync(join(run.runDir!, step.screenshot!))).toBe(true)
      }
      expect(existsSync(join(run.runDir!, result.result!.screenshot!))).toBe(true)
      expect(result.final_state, result.id).toBe(`${result.id}/finish.json`)
    }
    expect(run.summary?.totals).toMatchObject({ total: ids.length, passed: ids.length, success_rate: 1 })
    expect(run.summary?.by_suite.omnizon?.passed).toBe(ids.length)
  })

  test('eight tasks at once do not interfere, and a second run gives byte-identical /finish diffs', async () => {
    expect(oracle, 'needs the first oracle run').not.toBeNull()
    const second = await runBenchmark(['tasks/omnizon', '--maxWorkers=8'], { ...UNREAD_STEPS, AGENTEST_AGENT: 'oracle' })
    expect(second.code, second.stderr).toBe(0)
    expect(second.results.every((r) => r.status === 'passed')).toBe(true)
    for (const result of oracle!.results) {
      const again = second.results.find((r) => r.id === result.id)!
      const before = finishOf(oracle!, result) as { diff: unknown; final: unknown }
      const after = finishOf(second, again) as { diff: unknown; final: unknown }
      expect(JSON.stringify(after.diff), `${result.id}: /finish diff`).toBe(JSON.stringify(before.diff))
      expect(JSON.stringify(after.final), `${result.id}: final state`).toBe(JSON.stringify(before.final))
    }
  })

  test('every task fails under nop, and still writes a record for each', async () => {
    const run = await runBenchmark(GATE_RUN, { AGENTEST_AGENT: 'nop' })
    runs.nop = run.results
    expect(run.code).toBe(1)
    expect(run.results.map((r) => r.id).sort()).toEqual(ids)
    for (const result of run.results) {
      expect(result.status, result.id).toBe('failed')
      expect(result.trajectory).toEqual([])
      expect(result.check_results.some((c) => !c.passed), result.id).toBe(true)
      expect(result.error?.kind).toBe('check_failed')
    }
    expect(run.summary?.totals).toMatchObject({ total: ids.length, failed: ids.length, passed: 0, success_rate: 0 })
  })

  test('every near miss, declared and generated, fails its task', async () => {
    const run = await runBenchmark(GATE_RUN, { ...UNREAD_STEPS, AGENTEST_AGENT: 'near-miss' })
    runs.nearMiss = run.results
    expect(run.code).toBe(1)
    // Caught by the checks: failed, not errored or passed (a generated one may not fit: skipped, with the reason).
    expect(variantProblems('near miss', declared.nearMisses, run.results)).toEqual([])
  })

  test('every alternative (a right run by another route) passes', async () => {
    const run = await runBenchmark(GATE_RUN, { ...UNREAD_STEPS, AGENTEST_AGENT: 'alternative' })
    runs.alternative = run.results
    expect(variantsRecordedWithoutStepShots(run.results)).toBe(true)
    expect(variantProblems('alternative', declared.alternatives, run.results)).toEqual([])
    expect(declared.alternatives.size).toBeGreaterThanOrEqual(7)
  })

  test('the gate table: every task, every variant accounted for', () => {
    expect(Object.keys(runs).sort(), 'needs the four runs above').toEqual(['alternative', 'nearMiss', 'nop', 'oracle'])
    const rows = gateRows(ids, declared, runs as GateRuns)
    console.log(renderGate('omnizon', rows))
    expect(rows.flatMap((row) => row.problems.map((problem) => `${row.id}: ${problem}`))).toEqual([])
  })
})
