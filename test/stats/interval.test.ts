import { describe, expect, test } from 'vitest'
import { Interval, normalQuantile, wilson } from '../../src/stats/index.ts'

describe('the normal quantile', () => {
  test('matches published values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6)
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959964, 6)
    expect(normalQuantile(0.5)).toBe(0)
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 6)
    expect(normalQuantile(0.995)).toBeCloseTo(2.575829, 6)
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232, 6)
    expect(normalQuantile(0.8413447)).toBeCloseTo(1, 6) // Φ(1) = 0.8413447
    // Far tails (both of AS 241's tail branches): 6.361340902 and 9.262340090.
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361341, 6)
    expect(normalQuantile(1e-20)).toBeCloseTo(-9.26234, 5)
  })

  test('is ±Infinity at 0 and 1 and refuses anything outside', () => {
    expect(normalQuantile(0)).toBe(-Infinity)
    expect(normalQuantile(1)).toBe(Infinity)
    for (const p of [-0.1, 1.1, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError)
  })
})

describe('the Wilson score interval', () => {
  // z = 1.959964, z² = 3.841459. centre = (p + z²/2n) / (1 + z²/n), half = z·√(p(1-p)/n + z²/4n²) / (1 + z²/n).
  test('7/10 at 95% is [0.3968, 0.8922]', () => {
    // z²/n = 0.3841459; centre = (0.7 + 0.1920729) / 1.3841459 = 0.644493;
    // half = 1.959964 · √(0.021 + 0.0096036) / 1.3841459 = 1.959964 · 0.174939 / 1.3841459 = 0.247716.
    const i = wilson(7, 10)!
    expect(i.low).toBeCloseTo(0.3968, 4)
    expect(i.high).toBeCloseTo(0.8922, 4)
    expect(i).toMatchObject({ level: 0.95, method: 'wilson' })
    expect(Interval.parse(i)).toEqual(i)
  })

  test('0/10 and 10/10: the far bound is z²/(n+z²) from the edge, the near one the edge itself', () => {
    // 3.841459 / 13.841459 = 0.277533; 10 / 13.841459 = 0.722467.
    expect(wilson(0, 10)).toMatchObject({ low: 0 })
    expect(wilson(0, 10)!.high).toBeCloseTo(0.2775, 4)
    expect(wilson(10, 10)).toMatchObject({ high: 1 })
    expect(wilson(10, 10)!.low).toBeCloseTo(0.7225, 4)
  })

  test('1/1 is [n/(n+z²), 1] = [1/4.841459, 1] = [0.2065, 1]', () => {
    const i = wilson(1, 1)!
    expect(i.low).toBeCloseTo(0.2065, 4)
    expect(i.high).toBe(1)
  })

  test('other levels take z from the normal quantile', () => {
    // 90%: z = 1.644854, z² = 2.705543 for 7/10: centre = (0.7 + 0.1352772) / 1.2705543 = 0.657404;
    // half = 1.644854 · √(0.021 + 0.0067639) / 1.2705543 = 1.644854 · 0.166625 / 1.2705543 = 0.215711.
    const i = wilson(7, 10, 0.9)!
    expect(i.low).toBeCloseTo(0.4417, 4)
    expect(i.high).toBeCloseTo(0.8731, 4)
    expect(i.level).toBe(0.9)
  })

  test('null without trials; RangeError on impossible counts or levels', () => {
    expect(wilson(0, 0)).toBeNull()
    expect(() => wilson(11, 10)).toThrow(RangeError)
    expect(() => wilson(-1, 10)).toThrow(RangeError)
    expect(() => wilson(1.5, 10)).toThrow(RangeError)
    expect(() => wilson(5, 10, 1)).toThrow(RangeError)
    expect(() => wilson(5, 10, 0)).toThrow(RangeError)
  })
})
