import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../errors/input-error.ts'
import { readRunFolder, type RunFolder, type Warn } from './folder.ts'

export interface CollectedRuns {
  folders: RunFolder[]
  /** Names of the sub-folders with no valid record: not runs (`.model-cache`), or runs with nothing to count. */
  skipped: string[]
}

/**
 * Every run folder directly under the results folder that holds a valid record. A folder with a
 * summary.json or a config.yaml is meant as a run, so its unreadable records warn, one line each,
 * as readRunFolder does; in any other folder (`.model-cache`, `.cache`) JSON files are not meant
 * as records. Folders with no record are named in one warning line, not one line per file.
 */
export function collectRunFolders(resultsDir: string, warn: Warn): CollectedRuns {
  if (!existsSync(resultsDir) || !statSync(resultsDir).isDirectory()) throw new InputError(`no results folder ${resultsDir}`)
  const folders: RunFolder[] = []
  const skipped: string[] = []
  const names = readdirSync(resultsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  for (const name of names) {
    const dir = join(resultsDir, name)
    const marked = existsSync(join(dir, 'summary.json')) || existsSync(join(dir, 'config.yaml'))
    const held: string[] = []
    const folder = readRunFolder(dir, (line) => held.push(line))
    if (marked || folder.records.length > 0) held.forEach((line) => warn(line))
    if (folder.records.length > 0) folders.push(folder)
    else skipped.push(name)
  }
  if (skipped.length > 0) warn(`warning: skipped ${skipped.length === 1 ? '1 folder' : `${skipped.length} folders`} with no task record: ${skipped.join(', ')}`)
  return { folders, skipped }
}
