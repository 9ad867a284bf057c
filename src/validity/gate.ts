import type { TestCaseRun } from '../schema/run.ts'
import { isGenerated } from '../task/variants/variants.ts'

/** What the gate expects of each task: the variants Vitest collects for it, by task id. */
export interface Declared {
  nearMisses: Map<string, string[]>
  alternatives: Map<string, string[]>
}

/** The four runs a task is judged on. */
export interface GateRuns {
  oracle: TestCaseRun[]
  nop: TestCaseRun[]
  nearMiss: TestCaseRun[]
  alternative: TestCaseRun[]
}

/** How one variant went: `ok` when it did what the gate requires, null when a generated one did not fit. */
export interface VariantOutcome {
  name: string
  status: string
  ok: boolean | null
  /** Why a generated one did not fit (`ok` null): the task's app declares no candidates, no orders... */
  reason?: string
}

/** One task's line of the gate. */
export interface GateRow {
  id: string
  oracle: string
  nop: string
  nearMisses: VariantOutcome[]
  alternatives: VariantOutcome[]
  /** What is wrong with this task; none means it is sound. */
  problems: string[]
  /** Why a skipped task did not run. */
  reason?: string
  /** skipped: the task cannot run here (no engine, an unmapped eval, the open internet), so nothing was judged. */
  verdict: 'sound' | 'unsound' | 'skipped'
}

const firstLine = (result: TestCaseRun | undefined): string => (result?.error ? `: ${result.error.message.split('\n')[0]}` : '')

/**
 * What stopped a variant before it finished, if anything did: its step budget, its timeout, or
 * an error of its own. A near miss stopped early may match the reference and pass; that says
 * nothing about the checks.
 */
function cutShort(result: TestCaseRun): string | null {
  if (result.agent_status === 'max_steps') return `its ${result.max_steps}-step budget`
  if (result.agent_status === 'timeout') return 'its timeout'
  if (result.agent_status === 'error' && result.error) return `an error (${result.error.kind}: ${result.error.message.split('\n')[0]})`
  return null
}

/** Judges each task on the four runs: oracle passes, nop fails, every near miss fails, every alternative passes. */
export function gateRows(ids: readonly string[], declared: Declared, runs: GateRuns): GateRow[] {
  return ids.map((id) => {
    const problems: string[] = []
    const status = (results: TestCaseRun[]) => results.find((r) => r.id === id && r.variant === null)?.status ?? 'missing'
    const oracle = status(runs.oracle)
    const nop = status(runs.nop)
    const skippedBoth = oracle === 'skipped' && nop === 'skipped'
    if (skippedBoth) {
      const why = runs.oracle.find((r) => r.id === id && r.variant === null)?.error?.message ?? 'skipped'
      return { id, oracle, nop, nearMisses: [], alternatives: [], problems: [], verdict: 'skipped', reason: why.split('\n')[0] }
    }
    if (oracle !== 'passed') problems.push(`oracle ${oracle}${firstLine(runs.oracle.find((r) => r.id === id))}`)
    if (nop !== 'failed') problems.push(`nop ${nop} (a task that passes when nothing is done measures nothing)`)

    const nearMisses = (declared.nearMisses.get(id) ?? []).map((name): VariantOutcome => {
      const result = runs.nearMiss.find((r) => r.id === id && r.variant === name)
      if (!result) return { name, status: 'missing', ok: false }
      if (isGenerated(name) && result.status === 'skipped' && result.error?.kind === 'not_applicable') return { name, status: 'n/a', ok: null, reason: result.error.message.split('\n')[0] }
      return { name, status: result.status, ok: result.status === 'failed' }
    })
    for (const miss of nearMisses.filter((m) => m.ok === false)) {
      const result = runs.nearMiss.find((r) => r.id === id && r.variant === miss.name)
      const cut = result ? cutShort(result) : null
      problems.push(
        miss.status === 'missing'
          ? `near miss "${miss.name}" produced no result`
          : cut
            ? `near miss "${miss.name}" ${miss.status}, but it was cut short by ${cut} before it finished: a broken variant, not a weak check (give it what it needs)`
            : `near miss "${miss.name}" ${miss.status}${firstLine(result)} (it must fail)`,
      )
    }
    if (!nearMisses.some((m) => !isGenerated(m.name))) problems.push('no near miss declared')

    const alternatives = (declared.alternatives.get(id) ?? []).map((name): VariantOutcome => {
      const result = runs.alternative.find((r) => r.id === id && r.variant === name)
      return { name, status: result?.status ?? 'missing', ok: result?.status === 'passed' }
    })
    for (const alternative of alternatives.filter((a) => !a.ok)) {
      const result = runs.alternative.find((r) => r.id === id && r.variant === alternative.name)
      problems.push(`alternative "${alternative.name}" ${alternative.status === 'missing' ? 'produced no result' : `${alternative.status}${firstLine(result)}`} (it must pass)`)
    }
    return { id, oracle, nop, nearMisses, alternatives, problems, verdict: problems.length ? 'unsound' : 'sound' }
  })
}

/** `wrong item ✓ · hedger ✗ passed · echo n/a`: ✓ when the variant did what the gate requires. */
function variantCell(outcomes: readonly VariantOutcome[]): string {
  if (outcomes.length === 0) return '-'
  return outcomes.map((o) => (o.ok === null ? `${o.name} n/a` : o.ok ? `${o.name} ✓` : `${o.name} ✗ ${o.status}`)).join(' · ')
}

/** The gate's table: one line per task with its verdict, then every problem. */
export function renderGate(title: string, rows: readonly GateRow[]): string {
  const header = ['task', 'oracle', 'nop', 'near misses (must fail)', 'alternatives (must pass)', 'verdict']
  const body = rows.map((row) => [row.id, row.oracle, row.nop, variantCell(row.nearMisses), variantCell(row.alternatives), row.verdict])
  const widths = header.map((name, column) => Math.max(name.length, ...body.map((cells) => cells[column]!.length)))
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()
  const problems = rows.flatMap((row) => row.problems.map((problem) => `  ✗ ${row.id}: ${problem}`))
  const skipped = rows.filter((row) => row.verdict === 'skipped')
  const judged = rows.length - skipped.length
  const unsound = rows.filter((row) => row.verdict === 'unsound').length
  const tasks = (n: number) => `${n} task${n === 1 ? '' : 's'}`
  const verdict = unsound ? `${unsound} of ${tasks(judged)} unsound` : `all ${tasks(judged)} sound`
  const notRun = skipped.map((row) => `  - ${row.id}: ${row.reason ?? 'skipped'}`)
  const notApplicable = notApplicableLines(rows)
  return [
    `validity gate: ${title}`,
    line(header),
    ...body.map(line),
    ...(notApplicable.length ? ['n/a (generated near misses that do not fit the task):', ...notApplicable] : []),
    ...(problems.length ? ['problems:', ...problems] : ['no problems']),
    ...(notRun.length ? [`skipped here (not judged):`, ...notRun] : []),
    `${verdict}${skipped.length ? `, ${skipped.length} skipped` : ''}`,
  ].join('\n')
}

/**
 * Why generated near misses did not fit, one line per reason (the table says only n/a): which
 * variants on which tasks, `  - placed then cancelled, duplicate on inbox-1, inbox-3: the Inbox
 * app declares no orders ...`, so one app's missing orders is one line, not two per task.
 */
function notApplicableLines(rows: readonly GateRow[]): string[] {
  const byReason = new Map<string, { names: Set<string>; ids: Set<string> }>()
  for (const row of rows) {
    for (const miss of row.nearMisses.filter((m) => m.ok === null)) {
      const reason = miss.reason ?? 'not applicable'
      const entry = byReason.get(reason) ?? { names: new Set(), ids: new Set() }
      entry.names.add(miss.name)
      entry.ids.add(row.id)
      byReason.set(reason, entry)
    }
  }
  return [...byReason].map(([reason, { names, ids }]) => `  - ${[...names].join(', ')} on ${[...ids].join(', ')}: ${reason}`)
}

/**
 * The variants of one kind that did not do what the gate requires: a near miss must fail (a
 * generated one may be skipped as not applicable), an alternative must pass, and every declared
 * one must have produced a record. Returns one line per offender.
 */
export function variantProblems(kind: 'near miss' | 'alternative', declared: Map<string, string[]>, results: readonly TestCaseRun[]): string[] {
  const problems: string[] = []
  for (const [id, variants] of declared) {
    for (const variant of variants) {
      const result = results.find((r) => r.id === id && r.variant === variant)
      if (!result) problems.push(`${id} [${variant}]: no result`)
      else if (kind === 'alternative' && result.status !== 'passed') problems.push(`${id} [${variant}]: ${result.status}: ${result.error?.message}`)
      else if (kind === 'near miss' && result.status !== 'failed' && !(isGenerated(variant) && result.error?.kind === 'not_applicable')) {
        const cut = cutShort(result)
        problems.push(`${id} [${variant}]: ${result.status}${cut ? `, cut short by ${cut}: a broken variant, not a weak check` : firstLine(result)}`)
      }
    }
  }
  return problems
}
