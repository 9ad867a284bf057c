import { chai } from 'vitest'
import { format } from '@vitest/pretty-format'
import { getDefaultFormatOptions, printDiffOrStringify, type DiffOptions } from '@vitest/utils/diff'
import { plainText } from '../files/plain-text.ts'

/** What a failed check records: its message, and the values it compared in full. */
export interface Failure {
  message: string
  /** The values, pretty-printed as Vitest prints them, when the matcher compared two. */
  expected?: string
  received?: string
  /** A line diff (`- Expected` / `+ Received`) for objects, arrays and multi-line strings. */
  diff?: string
}

/** The parts of a chai/Vitest assertion error a failure is read from. */
interface AssertionLike {
  message?: unknown
  actual?: unknown
  expected?: unknown
  showDiff?: unknown
}

const plain = (text: string) => text
// Colours chosen here, not by the terminal: records hold plain text.
const PLAIN: DiffOptions = {
  aColor: plain,
  bColor: plain,
  changeColor: plain,
  commonColor: plain,
  patchColor: plain,
  changeLineTrailingSpaceColor: plain,
  commonLineTrailingSpaceColor: plain,
  truncateAnnotationColor: plain,
}

/**
 * Reads a failed matcher's error. The check's name is recorded beside the message, so the
 * `name: ` Vitest puts in front of a labelled expect's message is taken off.
 */
export function describeFailure(error: unknown, label: string | undefined): Failure {
  const assertion: AssertionLike = typeof error === 'object' && error !== null ? error : {}
  let message = plainText(typeof assertion.message === 'string' ? assertion.message : String(error))
  if (label && message.startsWith(`${label}: `)) message = message.slice(label.length + 2)
  if (!comparesValues(assertion)) return { message }
  const { actual, expected } = assertion
  const failure: Failure = { message, expected: pretty(expected), received: pretty(actual) }
  if (wantsDiff(actual) || wantsDiff(expected)) {
    const diff = printDiffOrStringify(actual, expected, PLAIN)
    if (diff) failure.diff = plainText(diff)
  }
  return failure
}

/**
 * Runs a matcher with chai's 40-character cut of values in messages lifted, so the message
 * says what was compared. An async matcher keeps it lifted until it settles.
 */
export function untruncated(matcher: () => unknown): unknown {
  const threshold = chai.config.truncateThreshold
  chai.config.truncateThreshold = 0
  const restore = () => void (chai.config.truncateThreshold = threshold)
  let result: unknown
  try {
    result = matcher()
  } catch (error) {
    restore()
    throw error
  }
  // Vitest's async assertions are thenables, not Promises.
  if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') return Promise.resolve(result).finally(restore)
  restore()
  return result
}

/** Chai's rule, as Vitest applies it: an error with both values and no showDiff: false. */
function comparesValues(error: AssertionLike): boolean {
  if (!('actual' in error) || !('expected' in error)) return false
  return error.showDiff === true || (error.showDiff === undefined && error.actual !== undefined && error.expected !== undefined)
}

function wantsDiff(value: unknown): boolean {
  return (typeof value === 'object' && value !== null) || (typeof value === 'string' && value.includes('\n'))
}

function pretty(value: unknown): string {
  try {
    return plainText(format(value, getDefaultFormatOptions(PLAIN)))
  } catch {
    return String(value)
  }
}
