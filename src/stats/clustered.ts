import { checkLevel, wilsonBounds, type Interval } from './interval.ts'

/**
 * An interval for a success rate when each task has several 0/1 attempts. Attempts of one task
 * are not independent trials (an agent that fails a task tends to fail it again), so the rate,
 * the mean over tasks of each task's pass rate, is worth fewer trials than it has attempts.
 *
 * This is Wilson's interval at the effective sample size (Kish): n_eff = p(1-p) / Var(p), with
 * Var(p) = s² / T estimated from the spread s² of the T task means. n_eff is kept between T (the
 * attempts of a task move together) and N, the number of attempts (they are independent).
 * Where the data cannot tell (every task passed, or every task failed, or a single task), it
 * takes T, the cautious end.
 * Unlike a percentile bootstrap over tasks, it never shrinks to a point when every task has the
 * same pass rate: 2 tasks passed on all 3 attempts give 34%–100%, not 100%–100%.
 * null when there are no tasks; throws RangeError on a task without attempts.
 */
export function clusteredWilson(tasks: readonly (readonly number[])[], level = 0.95): Interval | null {
  checkLevel(level)
  if (tasks.length === 0) return null
  const means = tasks.map((attempts, i) => {
    if (attempts.length === 0) throw new RangeError(`task ${i} has no attempts`)
    return attempts.reduce((sum, a) => sum + a, 0) / attempts.length
  })
  const t = means.length
  const n = tasks.reduce((sum, attempts) => sum + attempts.length, 0)
  const p = means.reduce((sum, m) => sum + m, 0) / t
  return { ...wilsonBounds(p, effectiveSize(means, p, t, n), level), level, method: 'wilson-clustered' }
}

function effectiveSize(means: readonly number[], p: number, t: number, n: number): number {
  const binomial = p * (1 - p)
  if (t < 2 || binomial === 0) return t
  const spread = means.reduce((sum, m) => sum + (m - p) ** 2, 0) / (t - 1)
  if (spread === 0) return n
  return Math.min(n, Math.max(t, (binomial * t) / spread))
}
