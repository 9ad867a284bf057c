import type { TestCaseRun } from '../schema/run.ts'
import type { Tally } from '../schema/summary.ts'
import { recordKey } from '../schema/task.ts'
import { mcnemarExact, pairedBootstrap } from '../stats/index.ts'
import { RunComparison, type PairedComparison, type RateChange, type TaskChange } from './comparison.ts'
import { outcomesByTask } from './epochs.ts'
import type { RunFolder } from './folder.ts'
import { effectiveStatus, isFaulted } from './outcome.ts'
import { storedRunFacts } from './stored-facts.ts'
import { groupBy, tally, unscoredInRates } from './stats.ts'

type Verdict = 'pass' | 'fail' | 'none'
// A faulted attempt (not the agent's doing) has no verdict, as in the rates.
const verdict = (run: TestCaseRun): Verdict => {
  const status = effectiveStatus(run)
  return status === 'passed' ? 'pass' : status === 'skipped' || status === 'aborted' || isFaulted(run) ? 'none' : 'fail'
}

export interface CompareOptions {
  /** Significance level of the paired test (the interval is at 1 - level); 0.05 unless given. */
  level?: number
}

/**
 * Diffs two run folders attempt by attempt (matched by record key), after human review, and tests
 * the difference in success rate over the tasks scored in both (see pairedComparison).
 */
export function compareRuns(a: RunFolder, b: RunFolder, options: CompareOptions = {}): RunComparison {
  // The lists are per attempt: the same task's epoch 2 in A is matched with its epoch 2 in B.
  const runsA = byKey(a)
  const runsB = byKey(b)
  const lists = { newly_passing: [] as TaskChange[], newly_failing: [] as TaskChange[], still_failing: [] as TaskChange[], not_scored: [] as TaskChange[], still_passing: [] as string[] }
  for (const [key, runA] of runsA) {
    const runB = runsB.get(key)
    if (!runB) continue
    const change = { key, a: effectiveStatus(runA), b: effectiveStatus(runB) }
    const [was, now] = [verdict(runA), verdict(runB)]
    if (was === 'pass' && now === 'pass') lists.still_passing.push(key)
    else if (now === 'pass') lists.newly_passing.push(change)
    else if (was === 'pass' && now === 'fail') lists.newly_failing.push(change)
    else if (was === 'fail' && now === 'fail') lists.still_failing.push(change)
    else lists.not_scored.push(change)
  }
  const allA = [...runsA.values()]
  const allB = [...runsB.values()]
  // The summary's own tally, so compare's rates are the summary's rates.
  const totalsA = tally(allA)
  const totalsB = tally(allB)
  const suitesA = groupBy(allA, (r) => r.category)
  const suitesB = groupBy(allB, (r) => r.category)
  const suites = [...new Set([...Object.keys(suitesA), ...Object.keys(suitesB)])].sort()
  const bySuite = (rate: Rate) => Object.fromEntries(suites.map((suite) => [suite, rateChange(suitesA[suite], suitesB[suite], rate)]))
  return RunComparison.parse({
    schema_version: 1,
    a: side(a, totalsA),
    b: side(b, totalsB),
    ...lists,
    only_in_a: [...runsA.keys()].filter((key) => !runsB.has(key)),
    only_in_b: [...runsB.keys()].filter((key) => !runsA.has(key)),
    success_rate: rateChange(totalsA, totalsB, 'success_rate'),
    strict_success_rate: rateChange(totalsA, totalsB, 'strict_success_rate'),
    by_suite: bySuite('success_rate'),
    by_suite_strict: bySuite('strict_success_rate'),
    paired: pairedComparison(allA, allB, options.level ?? 0.05),
  })
}

/**
 * B − A over the tasks (by task key) with a scored attempt in both runs, each task one pair of its
 * attempts' outcomes (scoredOutcome: tally's rule). One attempt a side everywhere: McNemar's exact
 * test on the tasks only one run passed. Several: a paired bootstrap over tasks, so attempts of one
 * task are not taken for independent trials. The interval is the paired bootstrap's in both cases
 * (seeded, so a comparison prints the same twice), not Newcombe's: one method for both.
 */
export function pairedComparison(runsA: readonly TestCaseRun[], runsB: readonly TestCaseRun[], level: number): PairedComparison | null {
  const outcomesA = outcomesByTask(runsA)
  const outcomesB = outcomesByTask(runsB)
  const pairs = [...outcomesA.keys()]
    .filter((key) => (outcomesA.get(key)?.length ?? 0) > 0 && (outcomesB.get(key)?.length ?? 0) > 0)
    .sort((x, y) => x.localeCompare(y, undefined, { numeric: true }))
    .map((key) => ({ a: outcomesA.get(key)!, b: outcomesB.get(key)! }))
  if (pairs.length === 0) return null
  const share = (outcomes: readonly number[]) => outcomes.reduce((sum, o) => sum + o, 0) / outcomes.length
  const only_a_passed = pairs.filter((p) => share(p.a) > share(p.b)).length
  const only_b_passed = pairs.filter((p) => share(p.b) > share(p.a)).length
  const bootstrap = pairedBootstrap(pairs, { level: 1 - level })
  const single = pairs.every((p) => p.a.length === 1 && p.b.length === 1)
  const p_value = single ? mcnemarExact(only_a_passed, only_b_passed) : bootstrap.p_value
  return {
    tasks: pairs.length,
    epochs_a: highestEpoch(runsA),
    epochs_b: highestEpoch(runsB),
    only_a_passed,
    only_b_passed,
    difference: bootstrap.difference,
    interval: bootstrap.interval,
    test: single ? 'mcnemar-exact' : 'paired-bootstrap',
    p_value,
    level,
    distinguishable: p_value < level,
  }
}

function highestEpoch(runs: readonly TestCaseRun[]): number {
  return runs.reduce((top, run) => Math.max(top, run.epoch), 0)
}

function byKey(folder: RunFolder): Map<string, TestCaseRun> {
  const keyed = folder.records.map((r) => [recordKey(r.run), r.run] as const)
  return new Map(keyed.sort(([x], [y]) => x.localeCompare(y, undefined, { numeric: true })))
}

function side(folder: RunFolder, totals: Tally) {
  const facts = storedRunFacts(folder, {})
  return {
    dir: folder.dir,
    run_id: facts.run_id,
    agent: facts.agent,
    tasks: totals.total,
    unscored: unscoredInRates(totals),
    judged_without_grader: totals.judged_without_grader,
    faulted: totals.faulted,
  }
}

type Rate = 'success_rate' | 'strict_success_rate'

function rateChange(a: Tally | undefined, b: Tally | undefined, rate: Rate): RateChange {
  const rateA = a?.[rate] ?? null
  const rateB = b?.[rate] ?? null
  return { a: rateA, b: rateB, change: rateA === null || rateB === null ? null : rateB - rateA }
}
