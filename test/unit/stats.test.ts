import { describe, expect, test } from 'vitest'
import { durationStats, weightedScore } from '../../src/runs/stats.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'

describe('durationStats', () => {
  test('mean, median and nearest-rank p90', () => {
    expect(durationStats([10, 20, 30, 40, 50, 60, 70, 80, 90, 100])).toEqual({
      count: 10,
      mean_ms: 55,
      median_ms: 55,
      p90_ms: 90,
    })
    expect(durationStats([5, 1, 3])).toEqual({ count: 3, mean_ms: 3, median_ms: 3, p90_ms: 5 })
  })

  test('no durations give nulls, not zeros', () => {
    expect(durationStats([])).toEqual({ count: 0, mean_ms: null, median_ms: null, p90_ms: null })
  })
})

describe('weightedScore', () => {
  const run = (level: TestCaseRun['level'], status: TestCaseRun['status']) => ({ level, status, check_results: [], error: null }) as unknown as TestCaseRun

  test('weights levels 0.5/1/2/4/8 as OSUniverse does', () => {
    // passed: paper (0.5) + gold (8) = 8.5 of paper + wood + gold = 9.5
    const runs = [run('paper', 'passed'), run('wood', 'failed'), run('gold', 'passed')]
    expect(weightedScore(runs)).toBeCloseTo((8.5 / 9.5) * 100)
  })

  test('skipped and unlevelled tasks do not count', () => {
    expect(weightedScore([run('silver', 'skipped'), run(null, 'passed')])).toBeNull()
    expect(weightedScore([run('silver', 'error'), run('bronze', 'passed')])).toBeCloseTo((2 / 6) * 100)
  })
})
