import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { isGenerated } from '../../src/validity/variants.ts'
import { ROOT, VITEST } from './run-benchmark.ts'

const run = promisify(execFile)

/** What the gate expects of one task: the variants it declares (and the generated ones that may fit it). */
export interface Declared {
  nearMisses: Map<string, string[]>
  alternatives: Map<string, string[]>
}

/**
 * Every variant a suite declares, as Vitest collects it (`vitest list`): a near miss that
 * produced no record is then a gate failure rather than a silent gap.
 */
export async function declaredVariants(suite: string): Promise<Declared> {
  const [nearMisses, alternatives] = await Promise.all([listVariants(suite, 'near-miss'), listVariants(suite, 'alternative')])
  return { nearMisses, alternatives }
}

async function listVariants(suite: string, agent: string): Promise<Map<string, string[]>> {
  const { stdout } = await run(process.execPath, [VITEST, 'list', '--project', 'benchmark', `tasks/${suite}`, '--json'], {
    cwd: ROOT,
    env: { ...process.env, AGENTEST_AGENT: agent, AGENTEST_RESULTS_DIR: mkdtempSync(join(tmpdir(), 'agentest-list-')), NO_COLOR: '1' },
    maxBuffer: 32 * 1024 * 1024,
  })
  const tests = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ name: string }>
  const variants = new Map<string, string[]>()
  for (const { name } of tests) {
    const match = /^([^:]+): .* \[(?:near miss|alternative): (.+)\]$/.exec(name)
    if (!match) continue
    variants.set(match[1]!, [...(variants.get(match[1]!) ?? []), match[2]!])
  }
  return variants
}

/** One row of the gate table. */
export interface GateRow {
  id: string
  oracle: string
  nop: string
  /** Near misses that failed, of those that ran (not-applicable generated ones aside), and declared by hand. */
  nearMisses: { failed: number; ran: number; declared: number; notApplicable: number }
  alternatives: { passed: number; declared: number }
  /** What is wrong with this task, if anything. */
  problems: string[]
}

export interface GateRuns {
  oracle: TestCaseRun[]
  nop: TestCaseRun[]
  nearMiss: TestCaseRun[]
  alternative: TestCaseRun[]
}

/** Builds the gate's table from the four runs of a suite and what it declares. */
export function gateRows(ids: readonly string[], declared: Declared, runs: GateRuns): GateRow[] {
  return ids.map((id) => {
    const problems: string[] = []
    const status = (results: TestCaseRun[]) => results.find((r) => r.id === id)?.status ?? 'missing'
    const oracle = status(runs.oracle)
    const nop = status(runs.nop)
    if (oracle !== 'passed') problems.push(`oracle ${oracle}`)
    if (nop !== 'failed') problems.push(`nop ${nop}`)
    const nearMisses = { failed: 0, ran: 0, declared: 0, notApplicable: 0 }
    for (const variant of declared.nearMisses.get(id) ?? []) {
      if (!isGenerated(variant)) nearMisses.declared++
      const result = runs.nearMiss.find((r) => r.id === id && r.variant === variant)
      if (!result) {
        problems.push(`near miss "${variant}" produced no result`)
        continue
      }
      if (isGenerated(variant) && result.status === 'skipped' && result.error?.kind === 'not_applicable') {
        nearMisses.notApplicable++
        continue
      }
      nearMisses.ran++
      if (result.status === 'failed') nearMisses.failed++
      else problems.push(`near miss "${variant}" ${result.status}${result.error ? `: ${result.error.message.split('\n')[0]}` : ''}`)
    }
    if (nearMisses.declared === 0) problems.push('no near miss declared')
    const alternatives = { passed: 0, declared: 0 }
    for (const variant of declared.alternatives.get(id) ?? []) {
      alternatives.declared++
      const result = runs.alternative.find((r) => r.id === id && r.variant === variant)
      if (result?.status === 'passed') alternatives.passed++
      else problems.push(`alternative "${variant}" ${result ? `${result.status}: ${result.error?.message.split('\n')[0] ?? ''}` : 'produced no result'}`)
    }
    return { id, oracle, nop, nearMisses, alternatives, problems }
  })
}

/** The table printed in the test output: one line per task, then every problem. */
export function renderGate(suite: string, rows: readonly GateRow[]): string {
  const header = ['task', 'oracle', 'nop', 'near misses failed/ran (declared, n/a)', 'alternatives passed/declared']
  const body = rows.map((row) => [
    row.id,
    row.oracle,
    row.nop,
    `${row.nearMisses.failed}/${row.nearMisses.ran} (${row.nearMisses.declared} declared, ${row.nearMisses.notApplicable} n/a)`,
    row.alternatives.declared ? `${row.alternatives.passed}/${row.alternatives.declared}` : '-',
  ])
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)))
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')
  const problems = rows.flatMap((row) => row.problems.map((problem) => `  ✗ ${row.id}: ${problem}`))
  return [`validity gate: tasks/${suite}`, line(header), ...body.map(line), ...(problems.length ? ['problems:', ...problems] : ['no problems'])].join('\n')
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
        problems.push(`${id} [${variant}]: ${result.status}${result.error ? `: ${result.error.message.split('\n')[0]}` : ''}`)
      }
    }
  }
  return problems
}
