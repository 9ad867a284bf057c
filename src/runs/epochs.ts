import type { TestCaseRun } from '../schema/run.ts'
import { taskKey } from '../schema/task.ts'
import { EpochReduction, TaskReduction } from '../schema/epochs.ts'
import { clusteredWilson, passAtK, passHatK, wilson, type Interval } from '../stats/index.ts'
import { effectiveStatus, isFaulted, isJudgedWithoutGrader } from './outcome.ts'

export { EpochReduction, TaskReduction }

/**
 * A record's outcome for the statistics: 1 if passed, 0 if failed, error or timeout, null if not
 * scored. The rule of `tally`'s success_rate (src/runs/stats.ts): the status after human review;
 * skipped and unscored records, judged records in a run without a grader, and faulted records
 * (a fault not of the agent's doing) are not scored.
 */
export function scoredOutcome(run: TestCaseRun): 0 | 1 | null {
  if (isJudgedWithoutGrader(run) || isFaulted(run)) return null
  const status = effectiveStatus(run)
  if (status === 'skipped' || status === 'aborted') return null
  return status === 'passed' ? 1 : 0
}

/** Each task's scored outcomes (1 passed, 0 not) by task key, in epoch order; unscored attempts left out. */
export function outcomesByTask(runs: readonly TestCaseRun[]): Map<string, (0 | 1)[]> {
  const byTask = new Map<string, (0 | 1)[]>()
  for (const run of [...runs].sort((x, y) => x.epoch - y.epoch)) {
    const outcome = scoredOutcome(run)
    const outcomes = byTask.get(taskKey(run)) ?? []
    if (outcome !== null) outcomes.push(outcome)
    byTask.set(taskKey(run), outcomes)
  }
  return byTask
}

export function reduceEpochs(runs: readonly TestCaseRun[]): EpochReduction {
  const outcomes = outcomesByTask(runs)
  const byTask = [...outcomes.entries()]
    .sort(([x], [y]) => x.localeCompare(y, undefined, { numeric: true }))
    .map(([key, attempts]) => reduceTask(key, attempts))
  const scored = byTask.filter((t) => t.attempts > 0)
  const fewest = scored.reduce((least, t) => Math.min(least, t.attempts), Infinity)
  const meanOver = (k: number, of: 'pass_at_k' | 'pass_hat_k') => average(scored.map((t) => t[of][k]!))
  const ks = scored.length > 0 ? range(fewest) : []
  return {
    epochs: runs.reduce((top, r) => Math.max(top, r.epoch), 0),
    tasks: scored.length,
    success_rate: scored.length > 0 ? average(scored.map((t) => t.mean!)) : null,
    interval: interval(scored.map((t) => outcomes.get(t.key)!)),
    pass_at_k: Object.fromEntries(ks.map((k) => [String(k), meanOver(k, 'pass_at_k')])),
    pass_hat_k: Object.fromEntries(ks.map((k) => [String(k), meanOver(k, 'pass_hat_k')])),
    by_task: byTask,
  }
}

function reduceTask(key: string, attempts: readonly (0 | 1)[]): TaskReduction {
  const n = attempts.length
  const c = attempts.filter((o) => o === 1).length
  return {
    key,
    attempts: n,
    passed: c,
    mean: n > 0 ? c / n : null,
    pass_at_k: Object.fromEntries(range(n).map((k) => [String(k), passAtK(n, c, k)])),
    pass_hat_k: Object.fromEntries(range(n).map((k) => [String(k), passHatK(n, c, k)])),
  }
}

/** One attempt per task: a binomial count, so Wilson; several: attempts of a task go together, so Wilson at the effective sample size. */
function interval(tasks: readonly (readonly (0 | 1)[])[]): Interval | null {
  if (tasks.every((attempts) => attempts.length === 1)) return wilson(tasks.filter((attempts) => attempts[0] === 1).length, tasks.length)
  return clusteredWilson(tasks)
}

/** 1..n */
function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1)
}

function average(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length
}
