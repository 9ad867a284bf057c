import { describe, expect, test } from 'vitest'
import { summarize, type RunFacts } from '../../src/runs/summarize.ts'
import { RunSummary, Tally } from '../../src/schema/summary.ts'
import { renderTable } from '../../reporters/summary.ts'
import { record, unscoredRecord } from './fixtures.ts'

const NONE_SET_ASIDE = { judged_without_grader: { total: 0, failed: 0 }, aborted: 0, faulted: 0, faults: {} }
const FACTS: RunFacts = { run_id: 'run-a', agent: 'oracle', agent_model: null, started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:01:00.000Z', prices: {} }

describe('summarize', () => {
  test('success by challenge type, beside suite and difficulty', () => {
    const summary = summarize(
      [
        record({ id: 'w-1', challenge_type: 'action' }),
        record({ id: 'w-2', challenge_type: 'action', status: 'failed' }),
        record({ id: 'w-3', challenge_type: 'retrieval' }),
        record({ id: 'd-1', category: 'editor', challenge_type: null, difficulty: null, level: 'wood' }),
      ],
      FACTS,
    )
    expect(Object.keys(summary.by_challenge)).toEqual(['action', 'retrieval'])
    expect(summary.by_challenge.action).toMatchObject({ total: 2, passed: 1, failed: 1, success_rate: 0.5 })
    expect(summary.by_challenge.retrieval).toMatchObject({ total: 1, passed: 1, success_rate: 1 })
    expect(renderTable(summary).some((line) => /^ {2}challenge action +2 +1 +1 /.test(line))).toBe(true)
  })

  test("a person's score wins over the status, and disagreements are listed", () => {
    const summary = summarize(
      [
        record({ id: 'a', status: 'failed', human_score: 1, human_comment: 'the answer is right, the check too strict' }),
        record({ id: 'b', status: 'passed', human_score: 0, human_comment: 'bought the wrong item' }),
        record({ id: 'c', status: 'passed', human_score: 1 }), // agrees
        record({ id: 'd', status: 'error', human_score: 0 }), // agrees, and stays an error
        unscoredRecord({ id: 'e', human_score: 1 }), // fills a gap: not a disagreement
        record({ id: 'f', status: 'failed' }), // not reviewed
      ],
      FACTS,
    )
    expect(summary.totals).toEqual({ ...NONE_SET_ASIDE, total: 6, passed: 3, failed: 2, error: 1, timeout: 0, skipped: 0, unscored: 0, cached: 0, scored: 6, success_rate: 0.5, strict_success_rate: 0.5 })
    expect(summary.human_reviewed).toBe(5)
    expect(summary.disagreements).toEqual([
      { id: 'a', ai_score: 0, human_score: 1, human_comment: 'the answer is right, the check too strict' },
      { id: 'b', ai_score: 1, human_score: 0, human_comment: 'bought the wrong item' },
    ])
    expect(summary.tasks.map((t) => [t.id, t.status, t.reviewed])).toEqual([
      ['a', 'passed', true],
      ['b', 'failed', true],
      ['c', 'passed', true],
      ['d', 'error', true],
      ['e', 'passed', true],
      ['f', 'failed', false],
    ])
    expect(renderTable(summary)).toContain('  human-reviewed: 5 (2 disagree with the automatic outcome)')
  })

  test('the weighted score and the passed durations use the outcome after review', () => {
    const summary = summarize(
      [
        record({ id: 'p', level: 'paper', status: 'failed', human_score: 1, duration_ms: 1_000 }),
        record({ id: 'g', level: 'gold', status: 'passed', human_score: 0, duration_ms: 9_000 }),
        record({ id: 'w', level: 'wood', status: 'passed', duration_ms: 3_000 }),
      ],
      FACTS,
    )
    // passed: paper 0.5 + wood 1 of 0.5 + 1 + 8
    expect(summary.weighted_score).toBeCloseTo((1.5 / 9.5) * 100)
    expect(summary.duration.all).toEqual({ count: 3, mean_ms: 4_333, median_ms: 3_000, p90_ms: 9_000 })
    expect(summary.duration.passed).toEqual({ count: 2, mean_ms: 2_000, median_ms: 2_000, p90_ms: 3_000 })
  })

  test('cached results are counted, and skipped, unscored and error are all in the totals', () => {
    const summary = summarize(
      [
        record({ id: 'a', cached: true }),
        record({ id: 'b', cached: true, status: 'failed', category: 'desk' }),
        record({ id: 'c', status: 'error' }),
        record({ id: 'd', status: 'skipped' }),
        unscoredRecord({ id: 'e' }),
      ],
      FACTS,
    )
    // e is unscored for want of a grader: set aside, in neither rate.
    expect(summary.totals).toEqual({
      total: 5,
      passed: 1,
      failed: 1,
      error: 1,
      timeout: 0,
      aborted: 0,
      faulted: 0,
      faults: {},
      skipped: 1,
      unscored: 1,
      cached: 2,
      judged_without_grader: { total: 1, failed: 0 },
      scored: 3,
      success_rate: 1 / 3,
      strict_success_rate: 1 / 3,
    })
    expect(summary.by_suite.desk).toMatchObject({ total: 1, cached: 1 })
    expect(renderTable(summary)).toContain('  cached results: 2')
    expect(renderTable(summary)).toContain(
      '  1 judged task set aside: no grader was configured, so a judged check could fail its task but never pass it; in neither rate (0 failed anyway)',
    )
  })

  test('a summary.json written before these fields still parses', () => {
    const old = summarize([record({ id: 'a' })], FACTS) as Record<string, unknown>
    const { by_challenge: _c, human_reviewed: _h, disagreements: _d, ...rest } = old
    const parsed = RunSummary.parse({ ...rest, totals: { ...(old.totals as object), cached: undefined } })
    expect(parsed).toMatchObject({ by_challenge: {}, human_reviewed: 0, disagreements: [], totals: { cached: 0 } })
  })

  test('an older summary without the strict rate gets it from its counts (it set nothing aside)', () => {
    const old = { total: 5, passed: 2, failed: 1, error: 0, timeout: 0, skipped: 1, unscored: 1, cached: 0, success_rate: 2 / 3 }
    expect(Tally.parse(old)).toEqual({ ...old, ...NONE_SET_ASIDE, scored: 3, strict_success_rate: 0.5 })
  })
})
