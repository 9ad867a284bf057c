import { describe, expect, test, type ExpectStatic } from 'vitest'
import { recordingExpect } from '../../src/grading/index.ts'
import { expectRealState, type StateEval } from '../../fixtures/apps/omnizon/real/index.ts'
import type { CheckResult } from '../../src/schema/run.ts'
import { finish, line, order } from './omnizon-finish.ts'

/** The real expect, with soft failures collected here instead of failing this test. */
function harness(base: ExpectStatic) {
  const checks: CheckResult[] = []
  const probe = new Proxy(base, {
    get(target, prop, receiver) {
      if (prop === 'soft') return () => ({ toBeAgentestCheckPass: () => undefined })
      return Reflect.get(target, prop, receiver)
    },
  })
  return { expect: recordingExpect(probe, (c) => void checks.push(c)), checks }
}

const evals = (...specs: Array<[string, unknown]>): StateEval[] => specs.map(([query, expected], index) => ({ index, query, expected, name: `evals[${index}]: ${query}` }))

const BOUGHT = finish({ orders: [order('OZ-1001', [line('p166', 2)])] })

describe("REAL's jmespath evals as recorded checks on the session's /finish", () => {
  test('each eval is one check, named by its index, passed when Python would find the values equal', () => {
    const { expect: check, checks } = harness(expect)
    expectRealState(check, BOUGHT, evals(['orderDetailsDiff.added."0".order.cart[].id', ['p166']], ['orderDetailsDiff.added."0".order.cart[0].quantity', 2], ['length(orderDetailsDiff.added) == `1`', 1]))
    expect(checks.map((c) => [c.check, c.passed])).toEqual([
      ['evals[0]: orderDetailsDiff.added."0".order.cart[].id', true],
      ['evals[1]: orderDetailsDiff.added."0".order.cart[0].quantity', true],
      // True == 1 in Python: REAL passes it, so does the check.
      ['evals[2]: length(orderDetailsDiff.added) == `1`', true],
    ])
  })

  test('a wrong value fails with both values; a query that errors fails with its error, as REAL scores it', () => {
    const { expect: check, checks } = harness(expect)
    expectRealState(check, finish({}), evals(['orderDetailsDiff.added."0".order.cart[0].quantity', 2], ['length(orderDetailsDiff.added."0".order.cart)', 1]))
    expect(checks.map((c) => c.passed)).toEqual([false, false])
    expect(checks[0]!.message).toContain('expected null to deeply equal 2')
    expect(checks[1]!.message).toMatch(/the query failed: .*length/)
  })
})
