import { join } from 'node:path'
import { writeJsonAtomic } from '../files/atomic.ts'
import { writeRecordsReport } from './write.ts'
import type { Prices } from '../schema/config.ts'
import type { RunSummary } from '../schema/summary.ts'
import { readRunFolder, type Warn } from '../runs/folder.ts'
import { storedRunFacts } from '../runs/stored-facts.ts'
import { summarize } from '../runs/summarize.ts'

/**
 * Reads the folder again and rewrites its summary.json and report.html from the records on disk,
 * so a review or a re-grade shows everywhere a person looks.
 */
export async function rewriteSummary(dir: string, prices: Prices, warn?: Warn): Promise<RunSummary> {
  const folder = readRunFolder(dir, warn)
  const records = folder.records.map((r) => r.run)
  const summary = summarize(records, storedRunFacts(folder, prices))
  await writeJsonAtomic(join(dir, 'summary.json'), summary)
  await writeRecordsReport(dir, records, summary)
  return summary
}
