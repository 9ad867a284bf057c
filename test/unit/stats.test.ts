import { describe, expect, test } from 'vitest'
import { durationStats } from '../../reporters/stats.ts'

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
