import { faultedNote, setAsideNote } from './format.ts'
import type { ComparedRun, PairedComparison, RateChange, RunComparison, TaskChange } from '../runs/comparison.ts'
import { shownPath } from '../runs/resolve.ts'

/** The comparison as console lines: the rates first, then the paired difference, then each list of attempts. */
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
    renderPaired(c.paired),
    ...changes('newly passing', c.newly_passing),
    ...changes('newly failing', c.newly_failing),
    ...changes('still failing', c.still_failing),
    ...changes('skipped, unscored or faulted', c.not_scored),
    `still passing: ${c.still_passing.length}`,
    ...keys('only in A', c.only_in_a),
    ...keys('only in B', c.only_in_b),
  ]
}

/**
 * The paired difference in words: `B − A: +12.0 pts (95% CI −3.1 to +27.0) over 30 tasks; McNemar
 * exact p = 0.18: not distinguishable from noise at the 5% level`.
 */
export function renderPaired(p: PairedComparison | null): string {
  if (p === null) return 'B − A: no task scored in both runs'
  const over = p.tasks === 1 ? '1 task' : `${p.tasks} tasks`
  if (p.only_a_passed === 0 && p.only_b_passed === 0) return `no difference: the runs agree on every task (${over})`
  const epochs = p.test === 'paired-bootstrap' ? ` (epochs: ${p.epochs_a} in A, ${p.epochs_b} in B)` : ''
  const test = p.test === 'mcnemar-exact' ? 'McNemar exact' : 'paired sign-flip'
  const ci = `${share(p.interval.level)} CI ${points(p.interval.low)} to ${points(p.interval.high)}${p.test === 'paired-bootstrap' ? ', paired bootstrap' : ''}`
  const verdict = p.distinguishable ? 'distinguishable from noise' : 'not distinguishable from noise'
  return `B − A: ${points(p.difference)} pts (${ci}) over ${over}${epochs}; ${test} p ${pValue(p.p_value)}: ${verdict} at the ${share(p.level)} level`
}

/** A difference of fractions in percentage points, signed, with a true minus sign. */
function points(value: number): string {
  const shown = (Math.abs(value) * 100).toFixed(1)
  return `${value < 0 && shown !== '0.0' ? '−' : '+'}${shown}`
}

/** 0.05 as "5%", 0.95 as "95%". */
function share(value: number): string {
  return `${Number((value * 100).toPrecision(6))}%`
}

/** Two significant digits, as p-values are read. */
function pValue(p: number): string {
  return p < 0.001 ? '< 0.001' : `= ${Number(p.toPrecision(2))}`
}

/** Judged and faulted tasks a run left out of its rates: the two runs' rates may then cover different tasks. */
function setAside(label: string, run: ComparedRun): string[] {
  const notes = [setAsideNote(run.judged_without_grader), faultedNote(run.faulted)]
  return notes.flatMap((note) => (note ? [`${label}: ${note}`] : []))
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
