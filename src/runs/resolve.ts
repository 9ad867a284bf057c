import { existsSync, statSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { InputError } from '../errors/input-error.ts'

/** A run folder given as a path, or as a run id under the results folder (`run.results_dir`). */
export function resolveRunFolder(given: string, resultsDir: string): string {
  const candidates = [resolve(given), resolve(resultsDir, given)]
  const found = candidates.find((dir) => existsSync(dir) && statSync(dir).isDirectory())
  if (found) return found
  throw new InputError(`no run folder ${given} (not a folder, nor a run id under ${shownPath(resultsDir)}/)`)
}

/** A path as a user would type it: relative inside the working folder, absolute outside it. */
export function shownPath(path: string): string {
  const inside = relative(process.cwd(), path)
  if (inside === '') return '.'
  return inside.startsWith('..') || isAbsolute(inside) ? path : inside
}
