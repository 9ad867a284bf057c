import { writeFileAtomic } from '../files/atomic.ts'
import { basename, join } from 'node:path'
import { readRunFolder, type RunFolder, type Warn } from '../runs/folder.ts'
import { renderRunReport } from './render.tsx'
import { readTranscript } from '../transcript/read.ts'
import type { TestCaseRun } from '../schema/run.ts'
import type { RunSummary } from '../schema/summary.ts'

export const REPORT_FILE = 'report.html'

export interface WriteRunReportOptions {
  /** Where warning lines go (a record that is not a TestCaseRun, an unreadable summary.json); stderr by default. */
  warn?: Warn
}

/**
 * Writes `<runDir>/report.html`, a static report of the run that opens from file:// (screenshots
 * by relative path), through a temporary file and a rename. Every `*.json` but summary.json is
 * read as a TestCaseRun; one that is not is skipped with a warning naming it. Returns the path.
 */
export async function writeRunReport(runDir: string, options: WriteRunReportOptions = {}): Promise<string> {
  return writeFolderReport(readRunFolder(runDir, options.warn))
}

/** writeRunReport for a run folder already read. */
export async function writeFolderReport(folder: RunFolder): Promise<string> {
  return writeRecordsReport(folder.dir, folder.records.map((stored) => stored.run), folder.summary)
}

/** Writes the report of records in memory (a live run's, as its reporter ends) into their run folder. */
export async function writeRecordsReport(dir: string, records: TestCaseRun[], summary: RunSummary | null): Promise<string> {
  const runId = summary?.run_id ?? records[0]?.run_id ?? basename(dir)
  const transcripts = Object.fromEntries(records.flatMap((record) => (record.transcript ? [[record.transcript, readTranscript(dir, record.transcript)]] : [])))
  const html = renderRunReport({ records, summary, runId, transcripts })
  const path = join(dir, REPORT_FILE)
  await writeFileAtomic(path, html)
  return path
}
