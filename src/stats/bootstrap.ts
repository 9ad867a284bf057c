import { checkLevel, type Interval } from './interval.ts'
import { randomIndex, seededRandom } from './random.ts'

export interface BootstrapOptions {
  /** Nominal coverage of the interval; 0.95 unless given. */
  level?: number
  /** How many resamples; 10_000 unless given. */
  resamples?: number
  /** The PRNG's seed (a 32-bit integer); a fixed default, so the same data give the same interval. */
  seed?: number
}

const DEFAULT_SEED = 1

/** The options with their defaults, checked: throws RangeError on a level outside (0,1) or a resample count below 1. */
export function bootstrapSettings(options: BootstrapOptions = {}): Required<BootstrapOptions> {
  const { level = 0.95, resamples = 10_000, seed = DEFAULT_SEED } = options
  checkLevel(level)
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer (got ${resamples})`)
  return { level, resamples, seed }
}

/** The mean of `values` over `resamples` draws of values.length indices with replacement. */
export function resampleMeans(values: readonly number[], resamples: number, random: () => number): number[] {
  const n = values.length
  const stats = new Array<number>(resamples)
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += values[randomIndex(random, n)]!
    stats[r] = sum / n
  }
  return stats
}

/** The central `level` range of `stats` (sorted in place): quantiles (1-level)/2 and (1+level)/2, interpolated linearly (R's type 7). */
export function percentiles(stats: number[], level: number): { low: number; high: number } {
  stats.sort((a, b) => a - b)
  return { low: quantile(stats, (1 - level) / 2), high: quantile(stats, (1 + level) / 2) }
}

function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p
  const below = Math.floor(h)
  const lower = sorted[below]!
  const upper = sorted[Math.min(below + 1, sorted.length - 1)]!
  return lower + (h - below) * (upper - lower)
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length
}
