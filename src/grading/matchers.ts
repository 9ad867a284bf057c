import { expect } from 'vitest'
import { mentions, showMention, type Mention } from '../checks/answer.ts'

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

/** How an answer is quoted in a failure: what it said, or that it said nothing. */
function said(answer: unknown): string {
  if (typeof answer !== 'string' || answer.trim() === '') return 'no answer was given'
  const text = answer.replace(/\s+/g, ' ').trim()
  return `it said: "${text.length > 200 ? `${text.slice(0, 199)}…` : text}"`
}

/** Answer checks whose failures read forward: "the answer does not name Cedar (no answer was given)". */
expect.extend({
  toNameEvery(received: unknown, wanted: readonly Mention[]) {
    const missing = wanted.filter((m) => !mentions(typeof received === 'string' ? received : '', m))
    return {
      pass: missing.length === 0,
      message: () =>
        missing.length ? `the answer does not name ${missing.map(showMention).join(', ')} (${said(received)})` : `the answer names ${wanted.map(showMention).join(', ')}`,
      actual: received ?? null,
      expected: wanted.map(showMention),
    }
  },
  toNameNone(received: unknown, others: readonly Mention[]) {
    const named = others.filter((m) => mentions(typeof received === 'string' ? received : '', m))
    return {
      pass: named.length === 0,
      message: () =>
        named.length ? `the answer also names ${named.map(showMention).join(', ')}, which the right answer does not (${said(received)})` : 'the answer names no other candidate',
      actual: received ?? null,
      expected: `none of ${others.map(showMention).join(', ')}`,
    }
  },
})

declare module 'vitest' {
  interface Matchers<T = any> {
    /** The answer names every one of these (words whole, numbers by value, patterns as given). */
    toNameEvery: (wanted: readonly Mention[]) => T
    /** The answer names none of these. */
    toNameNone: (others: readonly Mention[]) => T
    /** Internal: used by agentest to report a recorded check's failure softly. */
    toBeAgentestCheckPass: () => T
  }
}
