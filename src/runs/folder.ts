import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../errors/input-error.ts'
import { RunSummary } from '../schema/summary.ts'
import { readStoredRun, storedRunFiles, type StoredRun } from './record.ts'

export interface RunFolder {
  dir: string
  /** Every valid TestCaseRun JSON, sorted by file name. */
  records: StoredRun[]
  /** summary.json, when there is a valid one. */
  summary: RunSummary | null
}

export type Warn = (line: string) => void
const toStderr: Warn = (line) => process.stderr.write(`${line}\n`)

/**
 * Reads a run folder. A corrupt or half-written JSON (a run still going, or killed) is skipped
 * with one warning line naming the file, so one bad file never hides the rest of the run.
 */
export function readRunFolder(dir: string, warn: Warn = toStderr): RunFolder {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`no run folder ${dir}`)
  const records: StoredRun[] = []
  for (const file of storedRunFiles(dir)) {
    try {
      records.push(readStoredRun(file))
    } catch (error) {
      warn(`warning: skipped ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return { dir, records, summary: readSummary(join(dir, 'summary.json'), warn) }
}

function readSummary(file: string, warn: Warn): RunSummary | null {
  if (!existsSync(file)) return null
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    warn(`warning: ignored ${file}: not valid JSON (half-written?)`)
    return null
  }
  const parsed = RunSummary.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  warn(`warning: ignored ${file}: not a run summary: ${issue?.path.join('.') || 'body'}: ${issue?.message}`)
  return null
}
