import type { RunStatus, TestCaseRun } from '../schema/run.ts'
import type { Tally } from '../schema/summary.ts'
import { recordKey } from '../schema/task.ts'
import { RunComparison, type RateChange, type TaskChange } from './comparison.ts'
import type { RunFolder } from './folder.ts'
import { effectiveStatus } from './outcome.ts'
import { storedRunFacts } from './rebuild.ts'
import { groupBy, tally, unscoredInRates } from './stats.ts'

type Verdict = 'pass' | 'fail' | 'none'
const verdict = (status: RunStatus): Verdict => (status === 'passed' ? 'pass' : status === 'skipped' ? 'none' : 'fail')

/** Diffs two run folders task by task (matched by record key), after human review. */
export function compareRuns(a: RunFolder, b: RunFolder): RunComparison {
  const runsA = byKey(a)
  const runsB = byKey(b)
  const lists = { newly_passing: [] as TaskChange[], newly_failing: [] as TaskChange[], still_failing: [] as TaskChange[], not_scored: [] as TaskChange[], still_passing: [] as string[] }
  for (const [key, runA] of runsA) {
    const runB = runsB.get(key)
    if (!runB) continue
    const change = { key, a: effectiveStatus(runA), b: effectiveStatus(runB) }
    const [was, now] = [verdict(change.a), verdict(change.b)]
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
  })
}

function byKey(folder: RunFolder): Map<string, TestCaseRun> {
  const keyed = folder.records.map((r) => [recordKey(r.run), r.run] as const)
  return new Map(keyed.sort(([x], [y]) => x.localeCompare(y, undefined, { numeric: true })))
}

function side(folder: RunFolder, totals: Tally) {
  const facts = storedRunFacts(folder, {})
  return { dir: folder.dir, run_id: facts.run_id, agent: facts.agent, tasks: totals.total, unscored: unscoredInRates(totals), judged_without_grader: totals.judged_without_grader }
}

type Rate = 'success_rate' | 'strict_success_rate'

function rateChange(a: Tally | undefined, b: Tally | undefined, rate: Rate): RateChange {
  const rateA = a?.[rate] ?? null
  const rateB = b?.[rate] ?? null
  return { a: rateA, b: rateB, change: rateA === null || rateB === null ? null : rateB - rateA }
}
