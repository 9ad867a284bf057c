import type { DurationStats, Tally } from '../schema/summary.ts'
import type { RunStatus, TestCaseRun } from '../schema/run.ts'
import { LEVEL_WEIGHT } from '../schema/task.ts'
import { effectiveStatus, isUnscored } from './outcome.ts'

/** Counts by outcome after human review. */
export function tally(runs: readonly TestCaseRun[]): Tally {
  const statuses = runs.map(effectiveStatus)
  const count = (status: RunStatus) => statuses.filter((s) => s === status).length
  const unscored = runs.filter(isUnscored).length
  const skipped = count('skipped') - unscored
  const scored = runs.length - skipped - unscored
  const passed = count('passed')
  return {
    total: runs.length,
    passed,
    failed: count('failed'),
    error: count('error'),
    timeout: count('timeout'),
    skipped,
    unscored,
    cached: runs.filter((r) => r.cached).length,
    success_rate: scored > 0 ? passed / scored : null,
  }
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
 * Σ passed·w / Σ scored·w × 100. Skipped tasks are not scored; human review decides as elsewhere.
 */
export function weightedScore(runs: readonly TestCaseRun[]): number | null {
  let passed = 0
  let total = 0
  for (const run of runs) {
    const status = effectiveStatus(run)
    if (!run.level || status === 'skipped') continue
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
