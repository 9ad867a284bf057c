import { z } from 'zod'
import { normalQuantile } from './normal.ts'

export { normalQuantile }

/** How an interval was made: Wilson's score interval (at the effective sample size for clustered attempts), or a paired bootstrap over tasks. */
export const IntervalMethod = z.enum(['wilson', 'wilson-clustered', 'paired-bootstrap'])
export type IntervalMethod = z.infer<typeof IntervalMethod>

/** A confidence interval: `level` is its nominal coverage, e.g. 0.95. */
export const Interval = z.object({ low: z.number(), high: z.number(), level: z.number(), method: IntervalMethod })
export type Interval = z.infer<typeof Interval>

/**
 * Wilson score interval for a binomial proportion; null when trials is 0. level default 0.95 (z from
 * the normal quantile, e.g. 1.959964 for 0.95). Unlike the Wald interval p ± z·√(p(1-p)/n) it stays
 * inside [0, 1] and does not collapse to a point at 0/n or n/n, which small benchmarks hit often.
 */
export function wilson(successes: number, trials: number, level = 0.95): Interval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0 || successes > trials) {
    throw new RangeError(`successes must be an integer in 0..trials (got ${successes} of ${trials})`)
  }
  checkLevel(level)
  if (trials === 0) return null
  return { ...wilsonBounds(successes / trials, trials, level), level, method: 'wilson' }
}

/**
 * Wilson's bounds for a proportion `p` observed over `n` trials; `n` may be fractional (an
 * effective sample size). At p = 0 and p = 1 the bound is exactly 0 or 1, which rounding would
 * miss by a hair.
 */
export function wilsonBounds(p: number, n: number, level: number): { low: number; high: number } {
  const z = normalQuantile(1 - (1 - level) / 2)
  const z2n = (z * z) / n
  const centre = (p + z2n / 2) / (1 + z2n)
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / (1 + z2n)
  return { low: p === 0 ? 0 : Math.max(0, centre - half), high: p === 1 ? 1 : Math.min(1, centre + half) }
}

/** Throws RangeError unless 0 < level < 1. */
export function checkLevel(level: number): void {
  if (!(level > 0 && level < 1)) throw new RangeError(`a confidence level must be in (0, 1) (got ${level})`)
}
