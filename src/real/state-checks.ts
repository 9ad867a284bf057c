import type { ExpectStatic } from 'vitest'
import type { OmnizonFinish } from '../schema/omnizon.ts'
import { realDocument } from './document.ts'
import { pythonEquals, runQuery } from './jmespath.ts'
import type { StateEval } from './plan.ts'

/**
 * Runs each jmespath eval on REAL's document built from the session's `/finish`, as REAL's
 * evaluator does, each a recorded check: equal by Python's `==`, and a query that errors fails.
 */
export function expectRealState(expect: ExpectStatic, finish: OmnizonFinish, evals: readonly StateEval[]): void {
  const document = realDocument(finish)
  for (const spec of evals) {
    const result = runQuery(document, spec.query)
    if ('error' in result) {
      expect(`the query failed: ${result.error}`, spec.name).toEqual(spec.expected)
      continue
    }
    // Python's == is looser than toEqual (True == 1): where Python finds them equal, so does the check.
    expect(pythonEquals(result.value, spec.expected) ? spec.expected : result.value, spec.name).toEqual(spec.expected)
  }
}
