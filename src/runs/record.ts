import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { TestCaseRun } from '../schema/run.ts'

/** A TestCaseRun JSON as stored: the raw object (written back with only the changed fields replaced) and its parsed view. */
export interface StoredRun {
  file: string
  /** The run folder: screenshot paths are relative to it. */
  dir: string
  raw: Record<string, unknown>
  run: TestCaseRun
}

/** The TestCaseRun files of a run folder (every *.json but summary.json), sorted. */
export function storedRunFiles(runDir: string): string[] {
  return readdirSync(runDir)
    .filter((f) => f.endsWith('.json') && f !== 'summary.json')
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .map((f) => join(runDir, f))
}

/** Reads and validates one TestCaseRun JSON; the error names the file and the first bad field. */
export function readStoredRun(file: string): StoredRun {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`${file}: not valid JSON (half-written?): ${error instanceof Error ? error.message : String(error)}`)
  }
  const parsed = TestCaseRun.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`${file}: not a TestCaseRun: ${issue?.path.join('.') || 'body'}: ${issue?.message}`)
  }
  return { file, dir: dirname(file), raw: raw as Record<string, unknown>, run: parsed.data }
}
