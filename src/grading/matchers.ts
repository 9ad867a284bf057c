import { expect } from 'vitest'

interface FailedCheck {
  message?: string
  actual?: unknown
  expected?: unknown
}

/** Replays a caught assertion failure as a matcher failure, so `expect.soft` can record it. */
expect.extend({
  toBeAgentestCheckPass(received: unknown) {
    const error = (typeof received === 'object' && received !== null ? received : { message: String(received) }) as FailedCheck
    return {
      pass: false,
      message: () => error.message ?? String(received),
      actual: error.actual,
      expected: error.expected,
    }
  },
})

declare module 'vitest' {
  interface Matchers<T = any> {
    /** Internal: used by agentest to report a recorded check's failure softly. */
    toBeAgentestCheckPass: () => T
  }
}
