import { setAsideNote } from '../report/format.ts'
import type { ComparedRun, RateChange, RunComparison, TaskChange } from './comparison.ts'
import { shownPath } from './resolve.ts'

/** The comparison as console lines: the rates first, then each list of tasks. */
export function renderComparison(c: RunComparison): string[] {
  const suiteWidth = Math.max(0, ...Object.keys(c.by_suite).map((s) => s.length))
  return [
    `A: ${c.a.run_id} · agent ${c.a.agent} · ${tasks(c.a.tasks)} (${shownPath(c.a.dir)})`,
    `B: ${c.b.run_id} · agent ${c.b.agent} · ${tasks(c.b.tasks)} (${shownPath(c.b.dir)})`,
    `success rate (passed / scored): ${rate(c.success_rate)}`,
    `counting unscored as failed: ${rate(c.strict_success_rate)} · unscored ${c.a.unscored} → ${c.b.unscored}`,
    ...Object.entries(c.by_suite).map(
      ([suite, r]) => `  suite ${suite.padEnd(suiteWidth)}  ${rate(r)} · unscored as failed ${rate(c.by_suite_strict[suite] ?? { a: null, b: null, change: null })}`,
    ),
    ...setAside('A', c.a),
    ...setAside('B', c.b),
    ...changes('newly passing', c.newly_passing),
    ...changes('newly failing', c.newly_failing),
    ...changes('still failing', c.still_failing),
    ...changes('skipped or unscored', c.not_scored),
    `still passing: ${c.still_passing.length}`,
    ...keys('only in A', c.only_in_a),
    ...keys('only in B', c.only_in_b),
  ]
}

/** Judged tasks a run left out of its rates: the two runs' rates may then cover different tasks. */
function setAside(label: string, run: ComparedRun): string[] {
  const note = setAsideNote(run.judged_without_grader)
  return note ? [`${label}: ${note}`] : []
}

function tasks(count: number): string {
  return count === 1 ? '1 task' : `${count} tasks`
}

function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`
}

function rate(r: RateChange): string {
  const change = r.change === null ? '' : ` (${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)} pts)`
  return `${percent(r.a)} → ${percent(r.b)}${change}`
}

function changes(title: string, list: TaskChange[]): string[] {
  if (list.length === 0) return [`${title}: none`]
  const width = Math.max(...list.map((t) => t.key.length))
  return [`${title} (${list.length}):`, ...list.map((t) => `  ${t.key.padEnd(width)}  ${t.a} → ${t.b}`)]
}

function keys(title: string, list: string[]): string[] {
  return [list.length === 0 ? `${title}: none` : `${title} (${list.length}): ${list.join(', ')}`]
}
