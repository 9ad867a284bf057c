import type { DurationStats, Tally } from '../src/schema/summary.ts'
import type { TestCaseRun } from '../src/schema/run.ts'
import { LEVEL_WEIGHT } from '../src/schema/task.ts'

export function tally(runs: readonly TestCaseRun[]): Tally {
  const count = (status: TestCaseRun['status']) => runs.filter((r) => r.status === status).length
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
    success_rate: scored > 0 ? passed / scored : null,
  }
}

/** Skipped because a judged check has no verdict, rather than for want of a sandbox. */
export function isUnscored(run: TestCaseRun): boolean {
  return run.status === 'skipped' && run.check_results.some((c) => c.judge && c.score === -1)
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
 * Σ passed·w / Σ scored·w × 100. Skipped tasks are not scored.
 */
export function weightedScore(runs: readonly TestCaseRun[]): number | null {
  let passed = 0
  let total = 0
  for (const run of runs) {
    if (!run.level || run.status === 'skipped') continue
    const weight = LEVEL_WEIGHT[run.level]
    total += weight
    if (run.status === 'passed') passed += weight
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
