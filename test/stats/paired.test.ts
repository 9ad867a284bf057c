import { describe, expect, test } from 'vitest'
import { mcnemarExact, pairedBootstrap } from '../../src/stats/index.ts'

describe('the exact McNemar test', () => {
  test('matches the binomial tail worked by hand', () => {
    // n = 10: 2·P(X <= 1) = 2·(C(10,0) + C(10,1))/2^10 = 2·11/1024 = 0.021484.
    expect(mcnemarExact(1, 9)).toBeCloseTo(0.02148, 5)
    expect(mcnemarExact(9, 1)).toBeCloseTo(0.02148, 5)
    // n = 6: 2·C(6,0)/2^6 = 2/64 = 0.03125.
    expect(mcnemarExact(0, 6)).toBeCloseTo(0.03125, 10)
    // n = 22: 2·(1 + 22 + 231)/2^22 = 508/4194304 = 1.21117e-4.
    expect(mcnemarExact(2, 20)).toBeCloseTo(1.21117e-4, 9)
    // n = 10: 2·P(X <= 5) = 2·638/1024 > 1, so 1.
    expect(mcnemarExact(5, 5)).toBe(1)
    expect(mcnemarExact(0, 0)).toBe(1)
    expect(mcnemarExact(0, 1)).toBe(1) // 2·1/2 = 1
  })

  test('stays exact for large counts', () => {
    // n = 1100, where 2^-1100 underflows a double. The exact rational (Σ_{i<=500} C(1100,i) / 2^1099,
    // by arbitrary-precision integers) is 0.00281954499; the normal approximation with continuity
    // correction, z = (100 - 1)/√1100 = 2.985, gives 2·(1 - Φ(2.985)) = 0.00284, close by.
    expect(mcnemarExact(500, 600)).toBeCloseTo(0.00281954499, 10)
    // n = 6400: exact 6.0676104538e-7 (z = 399/80 = 4.99 gives 6.1e-7).
    expect(mcnemarExact(3000, 3400) / 6.0676104538e-7).toBeCloseTo(1, 8)
  })

  test('refuses negative or fractional counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError)
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError)
  })
})

describe('the paired bootstrap', () => {
  test('identical runs: no difference, p = 1', () => {
    const pairs = [[1, 0, 1], [0, 0, 0], [1, 1, 1], [0, 1]].map((x) => ({ a: x, b: [...x] }))
    const d = pairedBootstrap(pairs)
    expect(d).toEqual({ difference: 0, interval: { low: 0, high: 0, level: 0.95, method: 'paired-bootstrap' }, p_value: 1 })
  })

  test('a clearly better B: 30 tasks, A all 0 and B all 1', () => {
    const d = pairedBootstrap(Array.from({ length: 30 }, () => ({ a: [0, 0, 0], b: [1, 1, 1] })))
    expect(d.difference).toBe(1)
    expect(d.interval.low).toBeGreaterThan(0)
    // Only the 2 of 2^30 sign flips with all signs alike reach |sum| = 30; drawn 10,000 times
    // the share is counted (1 + 0)/(1 + 10,000) = 1e-4.
    expect(d.p_value).toBeLessThan(0.001)
  })

  test('the difference is the mean over tasks of mean(b) - mean(a)', () => {
    // Task 1: 1 - 1/2 = 0.5; task 2: 0 - 1 = -1; task 3: 2/3 - 0 = 0.6667. Mean: (0.5 - 1 + 0.6667)/3 = 0.0556.
    const d = pairedBootstrap([{ a: [1, 0], b: [1, 1] }, { a: [1], b: [0] }, { a: [0, 0, 0], b: [1, 1, 0] }])
    expect(d.difference).toBeCloseTo(1 / 18, 12)
    expect(d.interval.low).toBeLessThanOrEqual(d.difference)
    expect(d.interval.high).toBeGreaterThanOrEqual(d.difference)
  })

  test('few tasks: the sign flips are enumerated exactly; ties do not count', () => {
    // Differences 1, 1, 1, -1 (and two ties): observed |sum| = 2. The 16 flips of four ±1 sum to
    // -4, -2, 0, 2, 4 with counts 1, 4, 6, 4, 1; |sum| >= 2 in 10 of them: p = 10/16 = 0.625.
    const better = { a: [0], b: [1] }
    const d = pairedBootstrap([better, better, better, { a: [1], b: [0] }, { a: [1], b: [1] }, { a: [0], b: [0] }])
    expect(d.p_value).toBe(0.625)
    expect(d.difference).toBeCloseTo(2 / 6, 12)
  })

  test('on 0/1 tasks with one attempt the sign flip test is the exact McNemar test', () => {
    // 14 tasks only B passes, 6 only A: McNemar's 2·P(X <= 6), X ~ Bin(20, 1/2)
    // = 2·(1 + 20 + 190 + 1140 + 4845 + 15504 + 38760)/2^20 = 2·60460/1048576 = 0.115318.
    const pairs = [...Array.from({ length: 14 }, () => ({ a: [0], b: [1] })), ...Array.from({ length: 6 }, () => ({ a: [1], b: [0] }))]
    expect(mcnemarExact(6, 14)).toBeCloseTo(0.115318, 6)
    // 2^20 flips enumerated exactly when resamples allow...
    expect(pairedBootstrap(pairs, { resamples: 2 ** 20 }).p_value).toBeCloseTo(0.115318, 6)
    // ...else drawn: 10,000 draws give it within 3 standard errors, 3·√(0.115·0.885/10000) = 0.0096.
    expect(Math.abs(pairedBootstrap(pairs).p_value - 0.115318)).toBeLessThan(0.0096)
  })

  test('is reproducible by seed', () => {
    const pairs = Array.from({ length: 25 }, (_, t) => ({ a: [t % 2, t % 3 ? 1 : 0], b: [t % 5 ? 1 : 0, 1] }))
    expect(pairedBootstrap(pairs, { seed: 3 })).toEqual(pairedBootstrap(pairs, { seed: 3 }))
    expect(pairedBootstrap(pairs)).toEqual(pairedBootstrap(pairs))
  })

  test('throws RangeError on zero tasks or a side without attempts', () => {
    expect(() => pairedBootstrap([])).toThrow(RangeError)
    expect(() => pairedBootstrap([{ a: [], b: [1] }])).toThrow(RangeError)
    expect(() => pairedBootstrap([{ a: [1], b: [] }])).toThrow(RangeError)
  })
})
