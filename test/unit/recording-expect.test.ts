import { describe, expect, test, type ExpectStatic } from 'vitest'
import { recordingExpect } from '../../src/grading/index.ts'
import type { CheckResult } from '../../src/schema/run.ts'

/** The real expect, except that soft failures are collected here instead of failing this test. */
function harness(base: ExpectStatic) {
  const checks: CheckResult[] = []
  const softFailures: unknown[] = []
  const probe = new Proxy(base, {
    get(target, prop, receiver) {
      if (prop === 'soft') return (error: unknown) => ({ toBeAgentestCheckPass: () => softFailures.push(error) })
      return Reflect.get(target, prop, receiver)
    },
  })
  return { expect: recordingExpect(probe, (c) => void checks.push(c)), checks, softFailures }
}

describe('recordingExpect', () => {
  test('every matcher call is one recorded check, named by its label', () => {
    const { expect: check, checks, softFailures } = harness(expect)
    check(5, 'quantity is five').toBe(5)
    check([1, 2]).toEqual([1, 2])
    check('abc').not.toContain('z')
    expect(checks.map((c) => [c.check, c.passed])).toEqual([
      ['quantity is five', true],
      [expect.stringMatching(/^toEqual\(\[1,2\]\)/), true],
      [expect.stringMatching(/^toContain\("z"\)/), true],
    ])
    expect(softFailures).toEqual([])
  })

  test('a failing check is recorded with its message and does not stop the next one', () => {
    const { expect: check, checks, softFailures } = harness(expect)
    check(3, 'ordered five').toBe(5)
    check('p051', 'right product').toBe('p051')
    expect(checks).toHaveLength(2)
    expect(checks[0]).toMatchObject({ check: 'ordered five', passed: false, score: 0 })
    expect(checks[0]!.message).toContain('expected 3 to be 5')
    expect(checks[1]).toMatchObject({ check: 'right product', passed: true, score: 1 })
    expect(softFailures).toHaveLength(1)
  })

  test('async matchers are recorded when they settle', async () => {
    const { expect: check, checks } = harness(expect)
    await check(Promise.resolve(2), 'resolves to two').resolves.toBe(2)
    await check(Promise.resolve(1), 'resolves to three').resolves.toBe(3)
    expect(checks.map((c) => c.passed)).toEqual([true, false])
  })
})
