import { describe, expect, test } from 'vitest'
import { clusteredWilson, Interval, seededRandom, wilson } from '../../src/stats/index.ts'

/** 40 tasks with 1..7 attempts each and varied passes, so the task means take many values. */
const MIXED: number[][] = Array.from({ length: 40 }, (_, t) => Array.from({ length: 1 + (t % 7) }, (_, a) => ((t * 7 + a * 3) % 5 < 3 ? 1 : 0)))
const MIXED_MEAN = MIXED.reduce((sum, attempts) => sum + attempts.reduce((s, x) => s + x, 0) / attempts.length, 0) / MIXED.length

describe('seededRandom', () => {
  test('the same seed gives the same floats in [0, 1); another seed others', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed)
      return Array.from({ length: 1000 }, () => random())
    }
    const one = draw(1)
    expect(draw(1)).toEqual(one)
    expect(draw(2)).not.toEqual(one)
    expect(one.every((x) => x >= 0 && x < 1)).toBe(true)
    // Roughly uniform: the mean of 1000 draws is 0.5 ± 3·0.289/√1000 = 0.5 ± 0.027.
    expect(Math.abs(one.reduce((s, x) => s + x, 0) / one.length - 0.5)).toBeLessThan(0.03)
  })
})

describe('the clustered Wilson interval', () => {
  test('attempts that always agree count as one trial per task', () => {
    // 5 tasks always pass and 5 always fail, 10 attempts each. p = 0.5; the task means are 1 and 0,
    // s² = 10·0.25/9 = 0.2778, n_eff = p(1-p)·T/s² = 0.25·10/0.2778 = 9, kept within [T, N] = [10, 100]: 10.
    // Wilson(5 of 10): z²/n = 3.8415/10 = 0.38415, half = 1.96·√(0.025 + 0.0096037)/1.38415 = 0.2634,
    // so [0.2366, 0.7634]; counted as 50/100 independent attempts it would be [0.404, 0.596].
    const tasks = Array.from({ length: 10 }, (_, t) => Array.from({ length: 10 }, () => (t < 5 ? 1 : 0)))
    const i = clusteredWilson(tasks)!
    expect(i).toMatchObject({ level: 0.95, method: 'wilson-clustered' })
    expect(i.low).toBeCloseTo(0.2366, 4)
    expect(i.high).toBeCloseTo(0.7634, 4)
  })

  test('every task passed on every attempt: as many trials as tasks, never a point', () => {
    // p = 1, nothing to estimate the spread from: n_eff = T = 2. Wilson(2 of 2) = [4/(4+3.8415)... ] =
    // centre (1 + 0.9604)/(1 + 1.9207) = 0.6712, half 1.96·√(0 + 1.9207/8)/2.9207 = 0.3288: [0.3424, 1].
    const i = clusteredWilson([[1, 1, 1], [1, 1, 1]])!
    expect(i.low).toBeCloseTo(0.3424, 4)
    expect(i.high).toBe(1)
    expect(clusteredWilson([[0, 0], [0, 0]])).toMatchObject({ low: 0 })
  })

  test('tasks with the same pass rate: the attempts vary independently, so all of them count', () => {
    // Each task passes 1 of 2: s² = 0, n_eff = N = 6, Wilson(3 of 6) = [0.1876, 0.8124].
    const i = clusteredWilson([[1, 0], [0, 1], [1, 0]])!
    expect(i.low).toBeCloseTo(0.1876, 4)
    expect(i.high).toBeCloseTo(0.8124, 4)
  })

  test('one attempt per task is Wilson on the count', () => {
    // Means 1,0,1,1: s² = 0.75·0.25·4/3... n_eff = p(1-p)·T/s² = T - 1 = 3, kept at T = 4.
    const i = clusteredWilson([[1], [0], [1], [1]])!
    const plain = wilson(3, 4)!
    expect(i.low).toBeCloseTo(plain.low, 12)
    expect(i.high).toBeCloseTo(plain.high, 12)
  })

  test('contains the point estimate, and a 50% interval sits inside the 95% one', () => {
    const i = clusteredWilson(MIXED)!
    expect(Interval.parse(i)).toEqual(i)
    expect(i.low).toBeLessThan(MIXED_MEAN)
    expect(i.high).toBeGreaterThan(MIXED_MEAN)
    const narrow = clusteredWilson(MIXED, 0.5)!
    expect(narrow.low).toBeGreaterThan(i.low)
    expect(narrow.high).toBeLessThan(i.high)
  })

  test('null without tasks; RangeError on a task without attempts or a bad level', () => {
    expect(clusteredWilson([])).toBeNull()
    expect(() => clusteredWilson([[1], []])).toThrow(RangeError)
    expect(() => clusteredWilson([[1]], 1)).toThrow(RangeError)
  })
})
