import { bootstrapSettings, mean, percentiles, resampleMeans, type BootstrapOptions } from './bootstrap.ts'
import type { Interval } from './interval.ts'
import { seededRandom } from './random.ts'

/**
 * Two-sided exact McNemar test p-value from the discordant counts (onlyA = passed in A only, onlyB =
 * passed in B only): min(1, 2 * P(X <= min(onlyA, onlyB))) with X ~ Binomial(onlyA + onlyB, 1/2); 1
 * when both are 0. Exact for large counts too: the terms are summed in log space, so 2^-n never
 * underflows on the way (a result below ~1e-308 is 0).
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  if (![onlyA, onlyB].every((x) => Number.isInteger(x) && x >= 0)) {
    throw new RangeError(`discordant counts must be non-negative integers (got ${onlyA}, ${onlyB})`)
  }
  const n = onlyA + onlyB
  const m = Math.min(onlyA, onlyB)
  // log P(X = i) = log C(n,i) - n·log 2, from i = 0 up by C(n,i+1) = C(n,i)·(n-i)/(i+1).
  let logTerm = -n * Math.LN2
  let logTail = logTerm
  for (let i = 0; i < m; i++) {
    logTerm += Math.log(n - i) - Math.log(i + 1)
    logTail = logAddExp(logTail, logTerm)
  }
  return Math.min(1, 2 * Math.exp(logTail))
}

/** log(e^x + e^y) without overflow or underflow. */
function logAddExp(x: number, y: number): number {
  const top = Math.max(x, y)
  return top + Math.log1p(Math.exp(-Math.abs(x - y)))
}

export interface PairedDifference {
  /** Mean over tasks of (mean of b's attempts - mean of a's attempts): B's gain in success rate. */
  difference: number
  /** Percentile bootstrap over tasks; method 'paired-bootstrap'. */
  interval: Interval
  /** Two-sided, from a sign-flip permutation test over tasks (see pairedBootstrap). */
  p_value: number
}

/**
 * Paired bootstrap over tasks: resample task indices with replacement, statistic = mean over tasks
 * of (mean(b) - mean(a)); the interval is its percentile interval.
 *
 * p_value comes from a sign-flip permutation test over tasks rather than the shifted bootstrap: under
 * "A and B are alike" each task's difference is as likely negative as positive, so p is the share of
 * sign flips whose |sum| is at least the observed one. It holds in small samples, where a bootstrap
 * of a handful of tasks is overconfident. Flips are enumerated exactly when there are at most
 * `resamples` of them (2^m for m tasks with a difference), else drawn from the seeded PRNG and
 * counted as (1 + hits) / (1 + resamples), which is never 0. Every pair equal (no difference): 1.
 *
 * Throws RangeError on zero tasks or a side without attempts.
 */
export function pairedBootstrap(pairs: readonly { a: readonly number[]; b: readonly number[] }[], options?: BootstrapOptions): PairedDifference {
  const { level, resamples, seed } = bootstrapSettings(options)
  if (pairs.length === 0) throw new RangeError('a paired comparison needs at least one task')
  const differences = pairs.map(({ a, b }, i) => {
    if (a.length === 0 || b.length === 0) throw new RangeError(`task ${i} has no attempts in ${a.length === 0 ? 'A' : 'B'}`)
    return mean(b) - mean(a)
  })
  const random = seededRandom(seed)
  const stats = resampleMeans(differences, resamples, random)
  return {
    difference: mean(differences),
    interval: { ...percentiles(stats, level), level, method: 'paired-bootstrap' },
    p_value: signFlipPValue(differences, resamples, random),
  }
}

function signFlipPValue(differences: readonly number[], resamples: number, random: () => number): number {
  // Tasks without a difference are the same under every flip, so only the others are flipped.
  const nonzero = differences.filter((d) => d !== 0)
  const sizes = nonzero.map(Math.abs)
  const observed = Math.abs(nonzero.reduce((sum, d) => sum + d, 0))
  // Sums of the same numbers in another order can differ in the last bits; count those as ties.
  const atLeastObserved = (sum: number) => Math.abs(sum) >= observed - 1e-9 * Math.max(1, observed)
  const m = sizes.length
  if (m === 0) return 1
  if (m < 31 && 2 ** m <= resamples) {
    let hits = 0
    for (let mask = 0; mask < 2 ** m; mask++) {
      let sum = 0
      for (let i = 0; i < m; i++) sum += mask & (1 << i) ? -sizes[i]! : sizes[i]!
      if (atLeastObserved(sum)) hits++
    }
    return hits / 2 ** m
  }
  let hits = 0
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (const d of sizes) sum += random() < 0.5 ? -d : d
    if (atLeastObserved(sum)) hits++
  }
  return (1 + hits) / (1 + resamples)
}
