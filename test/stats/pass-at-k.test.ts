import { describe, expect, test } from 'vitest'
import { passAtK, passHatK } from '../../src/stats/index.ts'

describe('pass@k (some of k attempts pass)', () => {
  test('matches 1 - C(n-c,k)/C(n,k) worked by hand', () => {
    expect(passAtK(5, 0, 1)).toBe(0) // no passes: 1 - C(5,1)/C(5,1) = 0
    expect(passAtK(5, 0, 5)).toBe(0)
    expect(passAtK(5, 5, 3)).toBe(1) // c = n: C(0,3) = 0
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12) // k = 1 is c/n = 2/5
    expect(passAtK(7, 3, 1)).toBeCloseTo(3 / 7, 12)
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12) // 1 - C(3,2)/C(5,2) = 1 - 3/10
    expect(passAtK(5, 2, 5)).toBe(1) // k = n and one pass: every draw holds it
    expect(passAtK(5, 1, 4)).toBeCloseTo(0.8, 12) // 1 - C(4,4)/C(5,4) = 1 - 1/5
    expect(passAtK(10, 3, 5)).toBeCloseTo(11 / 12, 12) // 1 - C(7,5)/C(10,5) = 1 - 21/252 = 1 - 1/12
    expect(passAtK(3, 2, 2)).toBe(1) // 1 - C(1,2)/C(3,2) = 1 - 0/3
  })

  test('large n neither overflows nor leaves [0, 1]', () => {
    // C(n,k) for n = 10000 overflows a double; the product form never forms it.
    expect(passAtK(10_000, 1, 1)).toBeCloseTo(1e-4, 15)
    // 1 - C(9999,2)/C(10000,2) = 1 - 9998/10000 = 2e-4.
    expect(passAtK(10_000, 1, 2)).toBeCloseTo(2e-4, 12)
    const p = passAtK(10_000, 5_000, 5_000)
    expect(p).toBeGreaterThan(0.999)
    expect(p).toBeLessThanOrEqual(1)
  })

  test('throws RangeError unless 1 <= k <= n and 0 <= c <= n, integers', () => {
    for (const [n, c, k] of [[5, 2, 0], [5, 2, 6], [5, 6, 1], [5, -1, 1], [5, 2, 1.5], [0, 0, 1], [Number.NaN, 0, 1]] as const) {
      expect(() => passAtK(n, c, k)).toThrow(RangeError)
      expect(() => passHatK(n, c, k)).toThrow(RangeError)
    }
  })
})

describe('pass^k (all of k attempts pass)', () => {
  test('matches C(c,k)/C(n,k) worked by hand', () => {
    expect(passHatK(5, 0, 1)).toBe(0)
    expect(passHatK(5, 5, 3)).toBe(1) // C(5,3)/C(5,3)
    expect(passHatK(5, 5, 5)).toBe(1)
    expect(passHatK(5, 2, 1)).toBeCloseTo(0.4, 12) // k = 1 is c/n
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 12) // C(2,2)/C(5,2) = 1/10
    expect(passHatK(5, 2, 3)).toBe(0) // fewer passes than k
    expect(passHatK(5, 4, 5)).toBe(0) // k = n: all must pass
    expect(passHatK(10, 7, 4)).toBeCloseTo(1 / 6, 12) // C(7,4)/C(10,4) = 35/210
    expect(passHatK(3, 2, 2)).toBeCloseTo(1 / 3, 12) // C(2,2)/C(3,2) = 1/3
  })

  test('large n stays in [0, 1]', () => {
    // C(9999,2)/C(10000,2) = 9998/10000.
    expect(passHatK(10_000, 9_999, 2)).toBeCloseTo(0.9998, 12)
    expect(passHatK(10_000, 5_000, 5_000)).toBeGreaterThanOrEqual(0)
  })
})
