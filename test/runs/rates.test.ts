import { describe, expect, test } from 'vitest'
import { NEEDS_GRADER, toCheckResult } from '../../src/grading/judge/check-result.ts'
import { unscored } from '../../src/grading/grader/vote.ts'
import { tally, weightedScore } from '../../src/runs/stats.ts'
import { record, unscoredRecord } from './fixtures.ts'

const RUBRIC = { type: 'returned_result' as const, value: 'explains the choice' }

/** A task whose deterministic check failed, beside a judged check without a verdict (for `reason`). */
function failedWithJudged(id: string, reason: string) {
  return record({ id, status: 'failed', checks: [RUBRIC], check_results: [{ check: 'one order', passed: false, score: 0, message: null, input_tokens: 0, output_tokens: 0 }, toCheckResult('explains', RUBRIC, unscored(reason))] })
}

describe('the rates (tally)', () => {
  test('all scored: both rates are passed / scored', () => {
    const t = tally([record({ id: 'a' }), record({ id: 'b' }), record({ id: 'c', status: 'failed' }), record({ id: 'd', status: 'timeout' })])
    expect(t).toMatchObject({ total: 4, scored: 4, unscored: 0, success_rate: 0.5, strict_success_rate: 0.5, judged_without_grader: { total: 0, failed: 0 } })
  })

  test('an unscored task leaves success_rate and counts as not passed in the strict rate; a skip is in neither', () => {
    const t = tally([record({ id: 'a' }), record({ id: 'b', status: 'failed' }), unscoredRecord({ id: 'c' }, 'grader error: HTTP 500'), record({ id: 'd', status: 'skipped' })])
    expect(t).toMatchObject({ total: 4, passed: 1, failed: 1, skipped: 1, unscored: 1, scored: 2, success_rate: 0.5, strict_success_rate: 1 / 3 })
  })

  test('without a grader, judged tasks leave both rates and are counted apart', () => {
    const runs = [
      record({ id: 'a' }),
      record({ id: 'b', status: 'failed' }),
      failedWithJudged('judged-failed', NEEDS_GRADER), // failed a deterministic check
      unscoredRecord({ id: 'judged-unscored' }), // would have been a pass, had a grader said so
    ]
    const t = tally(runs)
    // The counts still say what happened to every task...
    expect(t).toMatchObject({ total: 4, passed: 1, failed: 2, unscored: 1, judged_without_grader: { total: 2, failed: 1 } })
    // ...but the rates cover only a and b.
    expect(t).toMatchObject({ scored: 2, success_rate: 0.5, strict_success_rate: 0.5 })
    expect(weightedScore(runs.map((r) => ({ ...r, level: 'wood' as const })))).toBe(50)
  })

  test('with a grader, a judged check that errored leaves the task unscored: not passed in the strict rate', () => {
    const t = tally([record({ id: 'a' }), unscoredRecord({ id: 'b' }, 'grader error: unparsable answer'), failedWithJudged('c', 'grader error: timeout')])
    expect(t).toMatchObject({ scored: 2, unscored: 1, success_rate: 0.5, strict_success_rate: 1 / 3, judged_without_grader: { total: 0, failed: 0 } })
  })

  test("a person's score puts a judged task without a grader back in the rates", () => {
    const t = tally([record({ id: 'a' }), unscoredRecord({ id: 'b', human_score: 0 }), unscoredRecord({ id: 'c', human_score: 1 })])
    expect(t).toMatchObject({ passed: 2, failed: 1, scored: 3, success_rate: 2 / 3, strict_success_rate: 2 / 3, judged_without_grader: { total: 0, failed: 0 } })
  })
})
