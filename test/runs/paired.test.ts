import { describe, expect, test } from 'vitest'
import { compareRuns } from '../../src/runs/compare.ts'
import { RunComparison } from '../../src/runs/comparison.ts'
import { readRunFolder } from '../../src/runs/folder.ts'
import { renderPaired } from '../../src/report/comparison.ts'
import type { RunStatus, TestCaseRun } from '../../src/schema/run.ts'
import { runScript } from '../grader/run-script.ts'
import { record, writeRunFolder } from './fixtures.ts'

type Outcomes = Record<string, readonly RunStatus[]>

/** One run folder from each task's statuses, epoch by epoch. */
function runFolder(runId: string, outcomes: Outcomes, parent?: string): string {
  const records: TestCaseRun[] = Object.entries(outcomes).flatMap(([id, statuses]) =>
    statuses.map((status, i) => record({ id, run_id: runId, status, epoch: i + 1 })),
  )
  return writeRunFolder(records, parent, runId)
}

function tasks(count: number, from: number, statuses: readonly RunStatus[]): Outcomes {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`omnizon-${from + i}`, statuses]))
}

/** 30 tasks: omnizon-1 passed only in A, omnizon-2..10 only in B, 10 passed and 10 failed in both. */
function flips(): { a: string; b: string } {
  const agree = { ...tasks(10, 11, ['passed']), ...tasks(10, 21, ['failed']) }
  const a = runFolder('run-a', { 'omnizon-1': ['passed'], ...tasks(9, 2, ['failed']), ...agree })
  const b = runFolder('run-b', { 'omnizon-1': ['error'], ...tasks(9, 2, ['passed']), ...agree })
  return { a, b }
}

/**
 * 8 tasks, 3 epochs each: on omnizon-1..6 A passes 1 attempt of 3 and B 2 (its second epoch), on
 * omnizon-7 both pass all, on omnizon-8 both fail all. B − A = 6 × (1/3) / 8 = 0.25; the sign-flip
 * test sees six equal differences, so p = P(all six signs alike) = 2 / 2^6 = 0.03125.
 */
function epochs(): { a: string; b: string } {
  const both = { 'omnizon-7': ['passed', 'passed', 'passed'], 'omnizon-8': ['failed', 'failed', 'failed'] } as const
  const a = runFolder('run-a', { ...tasks(6, 1, ['passed', 'failed', 'failed']), ...both })
  const b = runFolder('run-b', { ...tasks(6, 1, ['passed', 'passed', 'timeout']), ...both })
  return { a, b }
}

describe('paired comparison', () => {
  test('one epoch: McNemar exact on the tasks only one run passed', () => {
    const { a, b } = flips()
    const c = compareRuns(readRunFolder(a), readRunFolder(b))
    expect(c.paired).toMatchObject({ tasks: 30, epochs_a: 1, epochs_b: 1, only_a_passed: 1, only_b_passed: 9, test: 'mcnemar-exact', level: 0.05, distinguishable: true })
    // P(X <= 1), X ~ Bin(10, 1/2) = 11/1024; two-sided 22/1024.
    expect(c.paired!.p_value).toBeCloseTo(22 / 1024, 12)
    expect(c.paired!.difference).toBeCloseTo(8 / 30, 12)
    expect(c.paired!.interval).toMatchObject({ level: 0.95, method: 'paired-bootstrap' })
    // The interval is that of a seeded bootstrap: around the difference, and clear of 0 here as the test is.
    expect(c.paired!.interval.low).toBeGreaterThan(0)
    expect(c.paired!.interval.low).toBeLessThan(8 / 30)
    expect(c.paired!.interval.high).toBeGreaterThan(8 / 30)
    expect(c.paired!.interval.high).toBeLessThan(0.5)
    expect(renderPaired(c.paired)).toMatch(/^B − A: \+26\.7 pts \(95% CI \+\d+\.\d to \+\d+\.\d\) over 30 tasks; McNemar exact p = 0\.021: distinguishable from noise at the 5% level$/)
    // At the 1% level the same difference could be noise.
    const strict = compareRuns(readRunFolder(a), readRunFolder(b), { level: 0.01 })
    expect(strict.paired).toMatchObject({ level: 0.01, distinguishable: false, interval: { level: 0.99 } })
    expect(renderPaired(strict.paired)).toMatch(/99% CI .* not distinguishable from noise at the 1% level$/)
  })

  test('several epochs: a paired bootstrap over tasks, the same every time', () => {
    const { a, b } = epochs()
    const c = compareRuns(readRunFolder(a), readRunFolder(b))
    expect(c.paired).toMatchObject({ tasks: 8, epochs_a: 3, epochs_b: 3, only_a_passed: 0, only_b_passed: 6, test: 'paired-bootstrap', distinguishable: true })
    expect(c.paired!.difference).toBeCloseTo(0.25, 12)
    expect(c.paired!.p_value).toBeCloseTo(2 / 64, 12)
    expect(c.paired!.interval.low).toBeGreaterThan(0)
    expect(c.paired!.interval.high).toBeLessThanOrEqual(1 / 3 + 1e-12)
    expect(compareRuns(readRunFolder(a), readRunFolder(b))).toEqual(c)
    // The lists stay per attempt: the second epochs flipped.
    expect(c.newly_passing.map((t) => t.key)).toEqual(['omnizon-1.e2', 'omnizon-2.e2', 'omnizon-3.e2', 'omnizon-4.e2', 'omnizon-5.e2', 'omnizon-6.e2'])
    expect(c.newly_failing).toEqual([])
    expect(renderPaired(c.paired)).toMatch(
      /^B − A: \+25\.0 pts \(95% CI \+\d+\.\d to \+\d+\.\d, paired bootstrap\) over 8 tasks \(epochs: 3 in A, 3 in B\); paired sign-flip p = 0\.031: distinguishable from noise at the 5% level$/,
    )
  })

  test('a task is paired only when scored on both sides; none: no paired comparison', () => {
    const a = runFolder('run-a', { 'omnizon-1': ['passed'], 'omnizon-2': ['skipped'], 'omnizon-3': ['failed', 'passed'] })
    const b = runFolder('run-b', { 'omnizon-1': ['failed', 'skipped'], 'omnizon-2': ['passed'], 'omnizon-4': ['passed'] })
    const c = compareRuns(readRunFolder(a), readRunFolder(b))
    // omnizon-1 only: omnizon-2 has no verdict in A, omnizon-3 and omnizon-4 are in one run each. B's epoch 2 was skipped, so one attempt a side.
    expect(c.paired).toMatchObject({ tasks: 1, epochs_a: 2, epochs_b: 2, only_a_passed: 1, only_b_passed: 0, test: 'mcnemar-exact', p_value: 1, difference: -1 })
    const none = compareRuns(readRunFolder(runFolder('run-a', { 'omnizon-1': ['passed'] })), readRunFolder(runFolder('run-b', { 'omnizon-2': ['passed'] })))
    expect(none.paired).toBeNull()
    expect(renderPaired(none.paired)).toBe('B − A: no task scored in both runs')
  })
})

describe('npm run compare, paired', { timeout: 60_000 }, () => {
  test('prints the paired difference and its test in words', async () => {
    const { a, b } = flips()
    const run = await runScript('compare.ts', [a, b])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^B − A: \+26\.7 pts \(95% CI \+[\d.]+ to \+[\d.]+\) over 30 tasks; McNemar exact p = 0\.021: distinguishable from noise at the 5% level$/m)
    const json = RunComparison.parse(JSON.parse((await runScript('compare.ts', [a, b, '--json', '--level', '0.01'])).stdout))
    expect(json.paired).toMatchObject({ only_a_passed: 1, only_b_passed: 9, level: 0.01, distinguishable: false })
  })

  test('identical runs: no difference', async () => {
    const outcomes = { ...tasks(5, 1, ['passed']), ...tasks(3, 6, ['failed']) }
    const a = runFolder('run-a', outcomes)
    const run = await runScript('compare.ts', [a, runFolder('run-b', outcomes)])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('\nno difference: the runs agree on every task (8 tasks)\n')
  })

  test('several epochs: the same output twice', async () => {
    const { a, b } = epochs()
    const [first, second] = await Promise.all([runScript('compare.ts', [a, b]), runScript('compare.ts', [a, b])])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toContain('paired bootstrap) over 8 tasks (epochs: 3 in A, 3 in B); paired sign-flip p = 0.031')
    expect(second.stdout).toBe(first.stdout)
  })

  test('a bad --level is one line', async () => {
    const { a, b } = flips()
    const run = await runScript('compare.ts', [a, b, '--level', '5'])
    expect(run.code).toBe(1)
    expect(run.stderr.split('\n')[0]).toBe('compare: --level 5: a significance level between 0 and 1, such as 0.05')
  })
})
