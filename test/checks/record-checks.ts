import { expect, type ExpectStatic } from 'vitest'

/** Runs check helpers against a stand-in `expect` that records each check's label and verdict instead of failing. */
export function checksOf(work: (expect: ExpectStatic) => void): Record<string, boolean> {
  const results: Record<string, boolean> = {}
  const recording = ((actual: unknown, label: string) =>
    new Proxy(
      {},
      {
        get: (_target, matcher: string) => (...args: unknown[]) => {
          try {
            ;(expect(actual) as unknown as Record<string, (...a: unknown[]) => void>)[matcher]!(...args)
            results[label] = results[label] ?? true
          } catch {
            results[label] = false
          }
        },
      },
    )) as unknown as ExpectStatic
  work(recording)
  return results
}
