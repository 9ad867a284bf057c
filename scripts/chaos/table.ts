import type { ChaosRow } from './run-scenario.ts'

/** The chaos table: fault, tasks affected, outcome recorded, leaked resources, resumed; problems below. */
export function renderChaosTable(rows: readonly ChaosRow[]): string[] {
  const header = ['fault', 'tasks', 'affected', 'outcome recorded', 'leaked', 'resumed', 'ok']
  const body = rows.map((r) => [r.fault, String(r.tasks), String(r.affected), r.outcome, String(r.leaked), r.resumed ? 'yes' : 'no', r.problems.length ? 'NO' : 'yes'])
  const all = [header, ...body]
  const widths = header.map((_, col) => Math.max(...all.map((row) => row[col]!.length)))
  const line = (row: string[]) => `  ${row.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')}`
  const rule = `  ${'─'.repeat(widths.reduce((sum, w) => sum + w + 2, -2))}`
  const problems = rows.flatMap((r) => r.problems.map((p) => `  ${r.fault}: ${p}`))
  return ['', line(header), rule, ...body.map(line), rule, ...problems]
}
