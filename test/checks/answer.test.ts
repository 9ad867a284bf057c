import { describe, expect, test, type ExpectStatic } from 'vitest'
import { expectAnswer, mentions, numbersIn } from '../../src/checks/answer.ts'
import { checksOf } from './record-checks.ts'
import '../../src/grading/matchers.ts'

describe('answers name one candidate', () => {
  test('numbers are read by value, as people write them', () => {
    expect(numbersIn('It costs $1,119.99; 13-inch, 12.5in, v2, 48 x 365 = 17,520.')).toEqual([1119.99, 13, 12.5, 48, 365, 17520])
    expect(mentions('it takes 11 ms', 1)).toBe(false)
    expect(mentions('it takes 1 ms', 1)).toBe(true)
    expect(mentions('13.5 inches', 13)).toBe(false)
  })

  test('words match whole and ignore case, quotes and dashes', () => {
    expect(mentions('The MacBook Air 13–inch (M2)', 'macbook air 13-inch')).toBe(true)
    expect(mentions('Zinus Shawn 14″ frame', '14"')).toBe(true)
    expect(mentions('AirPods Pro', 'AirPods Pro 2')).toBe(false)
    expect(mentions('JBL Go 3', 'Go')).toBe(true)
    expect(mentions('Google', 'Go')).toBe(false)
  })

  const rule = { names: 13, notNaming: [12.5, 7, 10], what: 'the clearance' }

  test('a right answer passes, even quoting a title with another number in it', () => {
    const checks = checksOf((e) => expectAnswer(e, 'I ordered the Zinus Shawn 14 Inch Metal Platform Bed Frame; it has 13″ of clearance.', rule))
    expect(checks).toEqual({ 'names the clearance': true, 'names no other candidate': true })
  })

  test('a hedged answer (every candidate with its value) fails', () => {
    const checks = checksOf((e) => expectAnswer(e, 'Zinus: 13 in, Omnizon Basics: 12.5 in, Novilla: 7 in, Allewie: 10 in', rule))
    expect(checks).toEqual({ 'names the clearance': true, 'names no other candidate': false })
  })

  test('no answer, or the wrong one, fails', () => {
    expect(checksOf((e) => expectAnswer(e, null, rule))['names the clearance']).toBe(false)
    expect(checksOf((e) => expectAnswer(e, 'It has 12.5 inches.', rule))).toEqual({ 'names the clearance': false, 'names no other candidate': false })
  })

  test('a failure reads forward: what the answer lacks or wrongly names, and what it said', () => {
    const failure = (answer: string | null, check: (e: ExpectStatic) => void) => {
      try {
        check(((_: unknown) => expect(answer)) as unknown as ExpectStatic)
      } catch (error) {
        return (error as Error).message
      }
      return null
    }
    expect(failure(null, (e) => e(null).toNameEvery(['Cedar']))).toBe('the answer does not name Cedar (no answer was given)')
    expect(failure('Pine, I think', (e) => e(null).toNameEvery(['Cedar', 13]))).toBe('the answer does not name Cedar, 13 (it said: "Pine, I think")')
    expect(failure('Cedar or Pine', (e) => e(null).toNameNone(['Pine', 'Oak']))).toBe('the answer also names Pine, which the right answer does not (it said: "Cedar or Pine")')
    expect(failure('Cedar', (e) => e(null).toNameEvery(['Cedar']))).toBeNull()
    expect(failure('Cedar', (e) => e(null).toNameNone(['Pine']))).toBeNull()
  })
})
