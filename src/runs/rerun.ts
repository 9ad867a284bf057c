import type { TestCaseRun } from '../schema/run.ts'
import type { RerunFaulted, Tally } from '../schema/summary.ts'
import { recordKey } from '../schema/task.ts'
import { isFaulted } from './outcome.ts'

/**
 * The faulted tasks (record keys), by fault kind, and the command that runs exactly them again:
 * their task files, and -t on their names. Vitest's -t is a regular expression matched against a
 * test's full name (its suites' names and its own, joined by spaces), and every task's test is
 * named `<id>: <title>` (src/task/test-name.ts), so `^(a|b): ` selects those ids and no id that
 * merely starts or ends like one (`omnizon-20`, `real-omnizon-2` for `omnizon-2`); a task in a
 * describe block is named with its suites. A task's other variants and epochs match too; the cache
 * reuses those that passed, and a fault is never reused. Null when no task is faulted.
 */
export function rerunFaulted(runs: readonly TestCaseRun[]): RerunFaulted | null {
  const faulted = runs.filter(isFaulted)
  if (faulted.length === 0) return null
  const files = [...new Set(faulted.map((r) => r.file))].sort()
  const names = [...new Set(faulted.map(nameToId))].sort(numeric)
  const pattern = `^(${names.map(escapeRegExp).join('|')}): `
  const kinds: Record<string, number> = {}
  for (const kind of faulted.map((r) => r.error?.kind ?? 'unknown')) kinds[kind] = (kinds[kind] ?? 0) + 1
  return {
    tasks: faulted.map(recordKey).sort(numeric),
    kinds: Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b))),
    command: ['npx vitest run', ...files.map(shellQuote), '-t', shellQuote(pattern)].join(' '),
  }
}

/** The start of the name -t matches, up to the id: `desktop-3`, or `Suite desktop-3` in a describe block (test_name is `Suite > desktop-3: …`). */
function nameToId(run: TestCaseRun): string {
  const suites = run.test_name.split(' > ').slice(0, -1)
  return [...suites, run.id].join(' ')
}

function numeric(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true })
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A word as a POSIX shell reads it: bare when it is plain, else in single quotes. */
function shellQuote(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/**
 * The faults that count in the rates, by kind: every fault but an interrupt's (`aborted`, counted
 * apart) and those left out as `faulted`. These are the agent's doing (out_of_memory, a model
 * request refused as invalid), or a faulted task a person has since scored.
 */
export function faultsInRates(totals: Pick<Tally, 'faults'>, rerun: RerunFaulted | null | undefined): [string, number][] {
  return Object.entries(totals.faults)
    .filter(([kind]) => kind !== 'aborted')
    .map(([kind, n]): [string, number] => [kind, n - (rerun?.kinds[kind] ?? 0)])
    .filter(([, n]) => n > 0)
}
