/**
 * How a desktop check reports: one recorded check whose failure says what was expected, what was
 * found, and where the evidence came from, e.g. "the calculator's display (read from galculator's
 * settings, saved when the check closed it) shows 42, expected 7006652".
 */
import { expect as vitestExpect, type ExpectStatic } from 'vitest'

/** What a desktop check found. */
export interface Finding {
  pass: boolean
  /** The sentence shown when the check fails: expected, found, and the evidence's source. */
  message: string
  /** What was found and what was wanted, recorded beside the message. */
  found: string | number
  expected: string | number
}

vitestExpect.extend({
  toPassDesktopCheck(received: Finding) {
    return { pass: received.pass, message: () => received.message, actual: received.found, expected: received.expected }
  },
})

declare module 'vitest' {
  // Merged into Vitest's own declaration, whose type parameter this must repeat exactly.
  interface Matchers<T = any> {
    /** Internal: a desktop check's finding, reported with its own sentence. */
    toPassDesktopCheck: () => T
  }
}

/** Records `finding` as the check `label` (what must hold, in a sentence). */
export function report(expect: ExpectStatic, label: string, finding: Finding): void {
  expect(finding, label).toPassDesktopCheck()
}
