import { reasonKind, type FileRow, type SuiteFolder } from './inventory.ts'
import type { NopOutcome } from './nop-run.ts'

/** What nop did with a runnable case, as the table says it; `sound` when it failed with every check run. */
export function nopVerdict(outcome: NopOutcome | undefined): { text: string; sound: boolean | null } {
  if (!outcome) return { text: 'no record', sound: false }
  const checks = `${outcome.ran}/${outcome.checks} checks run`
  if (outcome.status === 'passed') return { text: `PASSED under nop (${checks})`, sound: false }
  if (outcome.status === 'failed' && outcome.ran === outcome.checks) return { text: `failed (${checks})`, sound: true }
  if (outcome.ran < outcome.checks) return { text: `${outcome.status} (${checks}: judged checks need a grader model)`, sound: null }
  return { text: `${outcome.status}${outcome.error ? `: ${outcome.error}` : ''} (${checks})`, sound: false }
}

/** One line per file, then each suite's counts: loaded, runnable, skipped by reason, and nop's outcomes. */
export function renderFidelity(folders: readonly SuiteFolder[], nop: ReadonlyMap<string, ReadonlyMap<string, NopOutcome>> | null): string {
  const out: string[] = []
  for (const folder of folders) {
    out.push(`${folder.suite} (${folder.dir})`)
    const outcomes = nop?.get(folder.suite)
    for (const row of folder.rows) out.push(`  ${row.file}  ${fileCell(row, outcomes)}`)
    out.push(...counts(folder, outcomes), '')
  }
  return out.join('\n')
}

function fileCell(row: FileRow, outcomes: ReadonlyMap<string, NopOutcome> | undefined): string {
  if (!row.loaded) return row.reason ?? 'did not load'
  if (row.reason) return `skipped: ${row.reason}`
  return outcomes ? `runs; nop: ${nopVerdict(outcomes.get(row.id!)).text}` : 'runs'
}

function counts(folder: SuiteFolder, outcomes: ReadonlyMap<string, NopOutcome> | undefined): string[] {
  const loaded = folder.rows.filter((row) => row.loaded)
  const runnable = loaded.filter((row) => !row.reason)
  const byReason = new Map<string, number>()
  for (const row of loaded.filter((r) => r.reason)) byReason.set(reasonKind(row.reason!), (byReason.get(reasonKind(row.reason!)) ?? 0) + 1)
  const lines = [`  ${folder.rows.length} files: ${loaded.length} loaded, ${runnable.length} runnable, ${loaded.length - runnable.length} skipped`]
  for (const [reason, n] of [...byReason].sort((a, b) => b[1] - a[1])) lines.push(`    ${n} skipped: ${reason}`)
  if (outcomes) {
    const verdicts = runnable.map((row) => nopVerdict(outcomes.get(row.id!)))
    const sound = verdicts.filter((v) => v.sound === true).length
    const unjudged = verdicts.filter((v) => v.sound === null).length
    const wrong = verdicts.filter((v) => v.sound === false).length
    lines.push(`  under nop: ${sound} failed with every check run, ${unjudged} with judged checks not run (no grader model), ${wrong} otherwise (passed, or did not reach its checks)`)
  }
  return lines
}
