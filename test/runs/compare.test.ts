import { describe, expect, test } from 'vitest'
import { compareRuns } from '../../src/runs/compare.ts'
import { RunComparison } from '../../src/runs/comparison.ts'
import { readRunFolder } from '../../src/runs/folder.ts'
import { runScript } from '../grader/run-script.ts'
import { record, unscoredRecord, writeRunFolder } from './fixtures.ts'

/**
 * Run A and run B of the same suite: one task got fixed, one broke, and the task lists differ a
 * little. A ran without a grader (omnizon-6 is set aside); B's grader failed on omnizon-6 (unscored).
 */
function twoRuns(): { a: string; b: string } {
  const a = writeRunFolder(
    [
      record({ id: 'omnizon-1' }),
      record({ id: 'omnizon-2', status: 'failed' }),
      record({ id: 'omnizon-3' }),
      record({ id: 'omnizon-4', status: 'error' }),
      record({ id: 'omnizon-5', status: 'failed' }), // a person passed it in B
      unscoredRecord({ id: 'omnizon-6' }),
      record({ id: 'desk-1', category: 'editor' }),
      record({ id: 'omnizon-9' }),
    ],
    undefined,
    'run-a',
  )
  const b = writeRunFolder(
    [
      record({ id: 'omnizon-1', run_id: 'run-b' }),
      record({ id: 'omnizon-2', run_id: 'run-b' }),
      record({ id: 'omnizon-3', run_id: 'run-b', status: 'timeout' }),
      record({ id: 'omnizon-4', run_id: 'run-b', status: 'failed' }),
      record({ id: 'omnizon-5', run_id: 'run-b', status: 'failed', human_score: 1 }),
      unscoredRecord({ id: 'omnizon-6', run_id: 'run-b' }, 'grader error: HTTP 500'),
      record({ id: 'desk-1', run_id: 'run-b', category: 'editor', status: 'failed' }),
      record({ id: 'omnizon-10', run_id: 'run-b' }),
    ],
    undefined,
    'run-b',
  )
  return { a, b }
}

describe('compareRuns', () => {
  test('newly passing, newly failing, still failing, only in one run, and the rate changes', () => {
    const { a, b } = twoRuns()
    const c = compareRuns(readRunFolder(a), readRunFolder(b))
    expect(c.newly_passing).toEqual([
      { key: 'omnizon-2', a: 'failed', b: 'passed' },
      { key: 'omnizon-5', a: 'failed', b: 'passed' },
    ])
    expect(c.newly_failing).toEqual([
      { key: 'desk-1', a: 'passed', b: 'failed' },
      { key: 'omnizon-3', a: 'passed', b: 'timeout' },
    ])
    expect(c.still_failing).toEqual([{ key: 'omnizon-4', a: 'error', b: 'failed' }])
    expect(c.not_scored).toEqual([{ key: 'omnizon-6', a: 'skipped', b: 'skipped' }])
    expect(c.still_passing).toEqual(['omnizon-1'])
    expect(c.only_in_a).toEqual(['omnizon-9'])
    expect(c.only_in_b).toEqual(['omnizon-10'])
    // A: 4 of 7 scored passed; B: 4 of 7.
    expect(c.success_rate).toEqual({ a: 4 / 7, b: 4 / 7, change: 0 })
    expect(c.by_suite.editor).toEqual({ a: 1, b: 0, change: -1 })
    expect(c.by_suite.omnizon!.change).toBeCloseTo(4 / 6 - 3 / 6)
    // Counting unscored as failed: A set omnizon-6 aside (no grader), B counts it as not passed.
    expect(c.strict_success_rate).toMatchObject({ a: 4 / 7, b: 4 / 8 })
    expect(c.by_suite_strict.omnizon).toMatchObject({ a: 3 / 6, b: 4 / 7 })
    expect(c.a).toMatchObject({ unscored: 0, judged_without_grader: { total: 1, failed: 0 } })
    expect(c.b).toMatchObject({ unscored: 1, judged_without_grader: { total: 0, failed: 0 } })
    // Paired over the 6 tasks scored in both (not omnizon-6, nor those in one run only): 2 flips each way.
    expect(c.paired).toMatchObject({ tasks: 6, only_a_passed: 2, only_b_passed: 2, difference: 0, test: 'mcnemar-exact', p_value: 1, distinguishable: false })
  })
})

describe('npm run compare', { timeout: 60_000 }, () => {
  test('prints the diff and exits 0', async () => {
    const { a, b } = twoRuns()
    const run = await runScript('compare.ts', [a, b])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.split('\n')).toEqual([
      `A: run-a · agent oracle · 8 tasks (${a})`,
      `B: run-b · agent oracle · 8 tasks (${b})`,
      'success rate (passed / scored): 57.1% → 57.1% (+0.0 pts)',
      'counting unscored as failed: 57.1% → 50.0% (-7.1 pts) · unscored 0 → 1',
      '  suite editor   100.0% → 0.0% (-100.0 pts) · unscored as failed 100.0% → 0.0% (-100.0 pts)',
      '  suite omnizon  50.0% → 66.7% (+16.7 pts) · unscored as failed 50.0% → 57.1% (+7.1 pts)',
      'A: 1 judged task set aside: no grader was configured, so a judged check could fail its task but never pass it; in neither rate (0 failed anyway)',
      'B − A: +0.0 pts (95% CI −66.7 to +66.7) over 6 tasks; McNemar exact p = 1: not distinguishable from noise at the 5% level',
      'newly passing (2):',
      '  omnizon-2  failed → passed',
      '  omnizon-5  failed → passed',
      'newly failing (2):',
      '  desk-1     passed → failed',
      '  omnizon-3  passed → timeout',
      'still failing (1):',
      '  omnizon-4  error → failed',
      'skipped, unscored or faulted (1):',
      '  omnizon-6  skipped → skipped',
      'still passing: 1',
      'only in A (1): omnizon-9',
      'only in B (1): omnizon-10',
      '',
    ])
  })

  test('--json prints a RunComparison', async () => {
    const { a, b } = twoRuns()
    const run = await runScript('compare.ts', [a, b, '--json'])
    expect(run.code, run.stderr).toBe(0)
    const parsed = RunComparison.parse(JSON.parse(run.stdout))
    expect(parsed.newly_passing.map((t) => t.key)).toEqual(['omnizon-2', 'omnizon-5'])
    expect(parsed.newly_failing.map((t) => t.key)).toEqual(['desk-1', 'omnizon-3'])
    expect(parsed.a).toMatchObject({ run_id: 'run-a', tasks: 8 })
  })

  test('a missing run folder is one line', async () => {
    const { a } = twoRuns()
    const run = await runScript('compare.ts', [a, 'nowhere-run'], { AGENTEST_RESULTS_DIR: '/tmp/agentest-no-results' })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('compare: no run folder nowhere-run (not a folder, nor a run id under /tmp/agentest-no-results/)\n')
  })
})
