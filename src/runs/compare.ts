import type { RunStatus, TestCaseRun } from '../schema/run.ts'
import type { Tally } from '../schema/summary.ts'
import { recordKey } from '../schema/task.ts'
import { RunComparison, type RateChange, type TaskChange } from './comparison.ts'
import type { RunFolder } from './folder.ts'
import { effectiveStatus } from './outcome.ts'
import { storedRunFacts } from './rebuild.ts'
import { groupBy, tally } from './stats.ts'

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
  const suitesA = groupBy(allA, (r) => r.category)
  const suitesB = groupBy(allB, (r) => r.category)
  const suites = [...new Set([...Object.keys(suitesA), ...Object.keys(suitesB)])].sort()
  return RunComparison.parse({
    schema_version: 1,
    a: side(a, allA.length),
    b: side(b, allB.length),
    ...lists,
    only_in_a: [...runsA.keys()].filter((key) => !runsB.has(key)),
    only_in_b: [...runsB.keys()].filter((key) => !runsA.has(key)),
    success_rate: rateChange(tally(allA), tally(allB)),
    by_suite: Object.fromEntries(suites.map((suite) => [suite, rateChange(suitesA[suite], suitesB[suite])])),
  })
}

function byKey(folder: RunFolder): Map<string, TestCaseRun> {
  const keyed = folder.records.map((r) => [recordKey(r.run), r.run] as const)
  return new Map(keyed.sort(([x], [y]) => x.localeCompare(y, undefined, { numeric: true })))
}

function side(folder: RunFolder, tasks: number) {
  const facts = storedRunFacts(folder, {})
  return { dir: folder.dir, run_id: facts.run_id, agent: facts.agent, tasks }
}

function rateChange(a: Tally | undefined, b: Tally | undefined): RateChange {
  const rateA = a?.success_rate ?? null
  const rateB = b?.success_rate ?? null
  return { a: rateA, b: rateB, change: rateA === null || rateB === null ? null : rateB - rateA }
}
