import { describe, expect, test } from 'vitest'
import { NEEDS_GRADER, toCheckResult } from '../../src/grading/judge/check-result.ts'
import { unscored } from '../../src/grading/grader/vote.ts'
import { EpochReduction, reduceEpochs, scoredOutcome } from '../../src/runs/epochs.ts'
import { tally } from '../../src/runs/stats.ts'
import type { RunStatus } from '../../src/schema/run.ts'
import { clusteredWilson, wilson } from '../../src/stats/index.ts'
import { record, unscoredRecord } from './fixtures.ts'

const RUBRIC = { type: 'returned_result' as const, value: 'explains the choice' }

/** One record per epoch (1, 2, ...) of task `id`, with these statuses. */
function attempts(id: string, statuses: readonly RunStatus[], variant: string | null = null) {
  return statuses.map((status, i) => record({ id, status, variant, epoch: i + 1 }))
}

/** A deterministic check failed beside a judged check a run without a grader could not score. */
function failedWithJudged(id: string) {
  const failing = { check: 'one order', passed: false, score: 0, message: null, input_tokens: 0, output_tokens: 0 }
  return record({ id, status: 'failed', checks: [RUBRIC], check_results: [failing, toCheckResult('explains', RUBRIC, unscored(NEEDS_GRADER))] })
}

describe('reduceEpochs', () => {
  test('an all-pass run of 3 epochs: pass@1 = pass@3 = 1 and pass^3 = 1', () => {
    const r = reduceEpochs([...attempts('a', ['passed', 'passed', 'passed']), ...attempts('b', ['passed', 'passed', 'passed'])])
    expect(r).toMatchObject({ epochs: 3, tasks: 2, success_rate: 1 })
    expect(r.pass_at_k).toEqual({ 1: 1, 2: 1, 3: 1 })
    expect(r.pass_hat_k).toEqual({ 1: 1, 2: 1, 3: 1 })
    // Nothing tells how the attempts of a task move together, so 2 tasks count as 2 trials: Wilson(2 of 2).
    expect(r.interval).toMatchObject({ high: 1, method: 'wilson-clustered' })
    expect(r.interval!.low).toBeCloseTo(0.3424, 4)
    expect(EpochReduction.parse(r)).toEqual(r)
  })

  test('a task passing on alternate attempts (pass, fail, pass)', () => {
    const r = reduceEpochs(attempts('a', ['passed', 'failed', 'passed']))
    const [task] = r.by_task
    // n = 3, c = 2.
    expect(task).toMatchObject({ key: 'a', attempts: 3, passed: 2 })
    expect(task!.mean).toBeCloseTo(2 / 3, 12)
    expect(task!.pass_at_k['1']).toBeCloseTo(2 / 3, 12) // c/n
    expect(task!.pass_at_k['2']).toBe(1) // 1 - C(1,2)/C(3,2) = 1 - 0/3: two draws always hold a pass
    expect(task!.pass_at_k['3']).toBe(1) // 1 - C(1,3)/C(3,3) = 1 - 0/1
    expect(task!.pass_hat_k['1']).toBeCloseTo(2 / 3, 12) // C(2,1)/C(3,1) = 2/3
    expect(task!.pass_hat_k['2']).toBeCloseTo(1 / 3, 12) // C(2,2)/C(3,2) = 1/3
    expect(task!.pass_hat_k['3']).toBe(0) // C(2,3)/C(3,3) = 0/1
    expect(r.pass_at_k['1']).toBeCloseTo(2 / 3, 12)
  })

  test('the run averages tasks, each weighing the same; k goes up to the fewest scored attempts', () => {
    const r = reduceEpochs([
      ...attempts('a', ['passed', 'passed', 'passed']),
      ...attempts('b', ['passed', 'failed', 'passed']),
      // c: two scored attempts (pass, fail) and a third skipped for want of a sandbox.
      ...attempts('c', ['passed', 'failed', 'skipped']),
    ])
    expect(r).toMatchObject({ epochs: 3, tasks: 3 })
    expect(r.by_task.map((t) => t.attempts)).toEqual([3, 3, 2])
    // Task means 1, 2/3, 1/2: (1 + 0.6667 + 0.5)/3 = 13/18 = 0.7222.
    expect(r.success_rate).toBeCloseTo(13 / 18, 12)
    // k = 1..2. pass@2: a 1, b 1, c 1 - C(1,2)/C(2,2) = 1, so 1. pass^2: a 1, b 1/3, c C(1,2)/C(2,2) = 0,
    // so (1 + 1/3 + 0)/3 = 4/9.
    expect(Object.keys(r.pass_at_k)).toEqual(['1', '2'])
    expect(r.pass_at_k['1']).toBeCloseTo(13 / 18, 12)
    expect(r.pass_at_k['2']).toBe(1)
    expect(r.pass_hat_k['2']).toBeCloseTo(4 / 9, 12)
    // Several attempts: Wilson at the clustered effective sample size of the tasks' scored attempts.
    expect(r.interval).toEqual(clusteredWilson([[1, 1, 1], [1, 0, 1], [1, 0]]))
    expect(r.interval!.low).toBeLessThanOrEqual(r.success_rate!)
    expect(r.interval!.high).toBeGreaterThanOrEqual(r.success_rate!)
  })

  test('a one-epoch run: success_rate is tally’s and the interval is Wilson', () => {
    const runs = [
      record({ id: 'a' }),
      record({ id: 'b' }),
      record({ id: 'c', status: 'failed' }),
      record({ id: 'd', status: 'error' }),
      record({ id: 'e', status: 'timeout' }),
      record({ id: 'f', status: 'failed', human_score: 1 }), // a person passed it
      record({ id: 'g', human_score: 0 }), // a person failed it
      record({ id: 'h', status: 'skipped' }), // no sandbox: not scored
      unscoredRecord({ id: 'i' }, 'grader error: HTTP 500'), // no verdict: not scored
      unscoredRecord({ id: 'j' }), // judged, no grader: set aside
      failedWithJudged('k'), // judged, no grader, failed anyway: set aside
    ]
    const r = reduceEpochs(runs)
    // Scored: a, b and f pass; c, d, e and g fail: 3 of 7. h, i, j and k are not scored.
    expect(r).toMatchObject({ epochs: 1, tasks: 7 })
    expect(r.success_rate).toBe(tally(runs).success_rate)
    expect(r.success_rate).toBeCloseTo(3 / 7, 12)
    expect(r.interval).toEqual(wilson(3, 7))
    expect(r.interval!.method).toBe('wilson')
    expect(r.pass_at_k).toEqual({ 1: r.success_rate })
    // Every task is listed, those without a scored attempt too.
    expect(r.by_task.map((t) => t.key)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'])
    expect(r.by_task.find((t) => t.key === 'h')).toEqual({ key: 'h', attempts: 0, passed: 0, mean: null, pass_at_k: {}, pass_hat_k: {} })
  })

  test('scoredOutcome follows tally’s rule record by record', () => {
    const runs = [
      record({ id: 'a' }),
      record({ id: 'b', status: 'failed' }),
      record({ id: 'c', status: 'timeout', human_score: 1 }),
      record({ id: 'd', human_score: 0 }),
      record({ id: 'e', status: 'skipped' }),
      record({ id: 'f', status: 'skipped', human_score: 1 }),
      unscoredRecord({ id: 'g' }),
      unscoredRecord({ id: 'h' }, 'grader error: HTTP 500'),
      unscoredRecord({ id: 'i', human_score: 0 }),
      failedWithJudged('j'),
    ]
    expect(runs.map(scoredOutcome)).toEqual([1, 0, 1, 0, null, 1, null, null, 0, null])
    for (const run of runs) expect(scoredOutcome(run)).toBe(tally([run]).success_rate)
  })

  test('skipped and unscored attempts are left out of a task’s attempts', () => {
    const r = reduceEpochs([
      record({ id: 'a', epoch: 1 }),
      record({ id: 'a', epoch: 2, status: 'skipped' }),
      unscoredRecord({ id: 'a', epoch: 3 }),
      record({ id: 'b', epoch: 1, status: 'failed' }),
    ])
    expect(r.by_task).toMatchObject([{ key: 'a', attempts: 1, passed: 1 }, { key: 'b', attempts: 1, passed: 0 }])
    expect(r).toMatchObject({ epochs: 3, tasks: 2, success_rate: 0.5 })
    // One scored attempt per task: Wilson again, 1 of 2.
    expect(r.interval).toEqual(wilson(1, 2))
  })

  test('tasks are keyed by id and variant, in numeric order', () => {
    const r = reduceEpochs([
      ...attempts('omnizon-10', ['passed', 'passed']),
      ...attempts('omnizon-2', ['failed', 'failed']),
      ...attempts('omnizon-2', ['passed', 'passed'], 'wrong item'),
    ])
    expect(r.by_task.map((t) => t.key)).toEqual(['omnizon-2', 'omnizon-2--wrong-item', 'omnizon-10'])
    expect(r.by_task.map((t) => t.attempts)).toEqual([2, 2, 2])
  })

  test('no records, or none scored: nothing to rate', () => {
    expect(reduceEpochs([])).toEqual({ epochs: 0, tasks: 0, success_rate: null, interval: null, pass_at_k: {}, pass_hat_k: {}, by_task: [] })
    const r = reduceEpochs([record({ id: 'a', status: 'skipped' })])
    expect(r).toMatchObject({ epochs: 1, tasks: 0, success_rate: null, interval: null, pass_at_k: {}, pass_hat_k: {} })
  })
})
