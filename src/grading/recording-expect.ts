import type { ExpectStatic } from 'vitest'
import type { CheckResult } from '../schema/run.ts'
import { Judge } from './judge/judge.ts'
import { describeFailure, untruncated, type Failure } from './failure.ts'

export type RecordCheck = (check: CheckResult) => void | Promise<void>

/** Property names on an assertion that only change its meaning; calling them is not a check. */
const MODIFIERS = new Set(['not', 'resolves', 'rejects', 'to', 'be', 'been', 'is', 'that', 'which', 'and', 'has', 'have', 'with', 'at', 'of', 'same', 'but', 'does', 'still', 'also', 'deep', 'nested', 'own', 'ordered', 'any', 'all'])

/**
 * Wraps a test's `expect` so every matcher call is one recorded check and all checks run:
 * a failing matcher is recorded and reported through `expect.soft`, so the test fails at the
 * end with every failure listed instead of stopping at the first.
 */
export function recordingExpect(base: ExpectStatic, record: RecordCheck): ExpectStatic {
  // `records: false` for judged checks: the judge records them itself (score, tokens, votes).
  const wrapAssertion = (assertion: object, label: string | undefined, where: string, records = true): object =>
    new Proxy(assertion, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver)
        if (typeof prop !== 'string' || prop === 'then') return value
        if (typeof value === 'function' && !MODIFIERS.has(prop)) {
          return wrapMatcher(value as (...args: unknown[]) => unknown, target, prop, label, where, records)
        }
        if (typeof value === 'object' && value !== null) return wrapAssertion(value, label, where, records)
        return value
      },
    })

  const wrapMatcher = (
    matcher: (...args: unknown[]) => unknown,
    target: object,
    name: string,
    label: string | undefined,
    where: string,
    records: boolean,
  ) =>
    (...args: unknown[]): unknown => {
      const check = label ?? `${name}(${args.map(preview).join(', ')})${where ? ` at ${where}` : ''}`
      const pass = () => (records ? record(passed(check)) : undefined)
      const fail = (error: unknown) => {
        // Record first: once expect.soft marks the test failed, Vitest takes no more annotations.
        const recorded = records ? record(failed(check, describeFailure(error, label))) : undefined
        // Re-raise through expect.soft so Vitest marks the test failed, with the original diff.
        base.soft(error).toBeAgentestCheckPass()
        return recorded
      }
      let result: unknown
      try {
        result = untruncated(() => matcher.apply(target, args))
      } catch (error) {
        void fail(error)
        return undefined
      }
      if (isPromise(result)) return result.then(pass, fail)
      void pass()
      return result
    }

  const assertionOf = (call: (actual: unknown, label?: string) => object, actual: unknown, label: string | undefined): object =>
    // The label names the judged check instead of prefixing its message, which must stay the recorded one.
    actual instanceof Judge ? wrapAssertion(call(actual.named(label ?? null)), label, '', false) : wrapAssertion(call(actual, label), label, callerLocation())
  const wrapCall = (call: (...args: unknown[]) => object) => (actual: unknown, label?: string) => assertionOf(call, actual, label)

  return new Proxy(base, {
    apply(target, thisArg, args: [unknown, string?]) {
      return assertionOf((...call) => Reflect.apply(target, thisArg, call) as object, args[0], args[1])
    },
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver)
      if (prop === 'soft' && typeof value === 'function') return wrapCall(value.bind(target))
      return value
    },
  })
}

function passed(check: string): CheckResult {
  return { check, passed: true, score: 1, message: null, input_tokens: 0, output_tokens: 0 }
}

function failed(check: string, failure: Failure): CheckResult {
  return { check, passed: false, score: 0, ...failure, input_tokens: 0, output_tokens: 0 }
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | null)?.then === 'function'
}

function preview(value: unknown): string {
  let text: string
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}

/** `file.task.ts:12` of the task line that called expect, to name checks that have no label. */
function callerLocation(): string {
  const stack = new Error().stack?.split('\n') ?? []
  const line = stack.find((l) => /\.task\.[cm]?[jt]s:\d+/.test(l))
  const match = line ? /([^/\\(\s]+\.task\.[cm]?[jt]s):(\d+)/.exec(line) : null
  return match ? `${match[1]}:${match[2]}` : ''
}
