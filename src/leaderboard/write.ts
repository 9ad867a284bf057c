import { writeFileAtomic, writeJsonAtomic } from '../files/atomic.ts'
import { join } from 'node:path'
import { InputError } from '../errors/input-error.ts'
import type { Warn } from '../runs/folder.ts'
import { shownPath } from '../runs/resolve.ts'
import { buildLeaderboard } from './build.ts'
import { collectRunFolders } from '../runs/collect.ts'
import { renderLeaderboard } from './render.tsx'
import type { Leaderboard } from './schema.ts'

export const LEADERBOARD_HTML = 'leaderboard.html'
export const LEADERBOARD_JSON = 'leaderboard.json'

export interface WrittenLeaderboard {
  board: Leaderboard
  html: string
  json: string
}

/**
 * Reads every run folder under `resultsDir` and writes `leaderboard.html` and `leaderboard.json`
 * there, each through a temporary file and a rename, so a reader never sees half a page. A
 * folder with no run in it is an InputError, and nothing is written.
 */
export async function writeLeaderboard(resultsDir: string, warn?: Warn, now?: Date): Promise<WrittenLeaderboard> {
  const { folders, skipped } = collectRunFolders(resultsDir, warn ?? ((line) => process.stderr.write(`${line}\n`)))
  if (folders.length === 0) throw new InputError(`no runs in ${shownPath(resultsDir)}: no folder there holds a task record`)
  const board = buildLeaderboard(folders, skipped, now)
  const json = join(resultsDir, LEADERBOARD_JSON)
  const html = join(resultsDir, LEADERBOARD_HTML)
  await writeJsonAtomic(json, board)
  await writeFileAtomic(html, renderLeaderboard(board))
  return { board, html, json }
}

