import { ratio, type DurationStats, type Tally } from '../schema/summary.ts'
import type { RunStatus, TestCaseRun } from '../schema/run.ts'
import { LEVEL_WEIGHT } from '../schema/task.ts'
import { isFaultKind } from '../faults/kinds.ts'
import { effectiveStatus, isFaulted, isJudgedWithoutGrader, isUnscored } from './outcome.ts'

/**
 * Counts by outcome after human review, and the run's rates. One rule for the summary, the report
 * and compare:
 * - `success_rate` = passed / scored, where scored tasks have a verdict: passed, failed, error, timeout.
 * - `strict_success_rate` = passed / (scored + unscored): a task a judged check left without a
 *   verdict counts as not passed.
 * - `judged_without_grader`: a task with a judged check in a run without a grader is left out of
 *   both rates (and counted apart), since there it could fail but never pass.
 * - `faulted`: a task that ended in a fault not of the agent's doing (isFaulted: a killed
 *   container, the model API down) says nothing of the agent, so it is left out of both rates, as
 *   an unscored task is, and counted apart (not under error); `rerun_faulted` runs it again.
 * Tasks skipped for want of a sandbox, and tasks aborted by an interrupt, are in neither rate.
 * Faults of the agent's doing (out_of_memory, a model request refused as invalid) count as not
 * passed. `faults` names every fault by kind.
 */
export function tally(all: readonly TestCaseRun[]): Tally {
  const runs = all.filter((r) => !isFaulted(r))
  const statuses = runs.map(effectiveStatus)
  const count = (status: RunStatus) => statuses.filter((s) => s === status).length
  const [passed, failed, error, timeout] = [count('passed'), count('failed'), count('error'), count('timeout')]
  const unscored = runs.filter(isUnscored).length
  const setAside = runs.filter(isJudgedWithoutGrader)
  // A task set aside either failed (a deterministic check, an error, a timeout) or is unscored.
  const setAsideFailed = setAside.filter((r) => !isUnscored(r)).length
  const scored = passed + failed + error + timeout - setAsideFailed
  const judged_without_grader = { total: setAside.length, failed: setAsideFailed }
  return {
    total: all.length,
    passed,
    failed,
    error,
    timeout,
    skipped: count('skipped') - unscored,
    aborted: count('aborted'),
    faulted: all.length - runs.length,
    faults: faultCounts(all),
    unscored,
    cached: all.filter((r) => r.cached).length,
    judged_without_grader,
    scored,
    success_rate: ratio(passed, scored),
    strict_success_rate: ratio(passed, scored + unscoredInRates({ unscored, judged_without_grader })),
  }
}

/** Tasks by fault kind, for those that ended in one (kinds sorted, for stable output). */
function faultCounts(runs: readonly TestCaseRun[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const run of runs) if (run.error && isFaultKind(run.error.kind)) counts[run.error.kind] = (counts[run.error.kind] ?? 0) + 1
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)))
}

/** The unscored tasks the strict rate counts as not passed: all but those set aside (which are unscored unless they failed). */
export function unscoredInRates(t: Pick<Tally, 'unscored' | 'judged_without_grader'>): number {
  return t.unscored - (t.judged_without_grader.total - t.judged_without_grader.failed)
}

export function groupBy(runs: readonly TestCaseRun[], key: (run: TestCaseRun) => string | null): Record<string, Tally> {
  const groups = new Map<string, TestCaseRun[]>()
  for (const run of runs) {
    const name = key(run) ?? 'unspecified'
    groups.set(name, [...(groups.get(name) ?? []), run])
  }
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, group]) => [name, tally(group)]))
}

/**
 * OSUniverse's weighted success rate: each level counts with its weight (paper 0.5 ... gold 8),
 * Σ passed·w / Σ scored·w × 100. Skipped tasks are not scored, nor judged tasks in a run without
 * a grader, nor faulted ones (as in `tally`); human review decides as elsewhere.
 */
export function weightedScore(runs: readonly TestCaseRun[]): number | null {
  let passed = 0
  let total = 0
  for (const run of runs) {
    const status = effectiveStatus(run)
    if (!run.level || status === 'skipped' || status === 'aborted' || isJudgedWithoutGrader(run) || isFaulted(run)) continue
    const weight = LEVEL_WEIGHT[run.level]
    total += weight
    if (status === 'passed') passed += weight
  }
  return total > 0 ? (passed / total) * 100 : null
}

/** Mean, median and p90 (nearest rank) of durations in milliseconds. */
export function durationStats(durations: readonly number[]): DurationStats {
  if (durations.length === 0) return { count: 0, mean_ms: null, median_ms: null, p90_ms: null }
  const sorted = [...durations].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)]!
  const mean = sorted.reduce((sum, d) => sum + d, 0) / sorted.length
  return { count: sorted.length, mean_ms: Math.round(mean), median_ms: Math.round(median), p90_ms: Math.round(p90) }
}
