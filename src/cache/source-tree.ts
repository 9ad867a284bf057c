import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { combine, sha256 } from './hash.ts'

// agentest's own files change with a checkout or an upgrade, not during a run: hashed once per process.
const memo = new Map<string, string>()

/**
 * A hash of the files under `entries` (files or folders, relative to `root`), minus `exclude`,
 * by relative path and content: a moved or renamed file counts. A missing entry counts as absent.
 */
export function treeHash(root: string, entries: readonly string[], exclude: readonly string[] = []): string {
  const key = JSON.stringify([root, entries, exclude])
  let hash = memo.get(key)
  if (hash === undefined) {
    const skipped = new Set(exclude)
    const files = [...new Set(entries.flatMap((entry) => filesUnder(root, entry, skipped)))]
    hash = combine(files.map((file) => `${file}\0${sha256(readFileSync(join(root, file)))}`))
    memo.set(key, hash)
  }
  return hash
}

function filesUnder(root: string, entry: string, skipped: ReadonlySet<string>): string[] {
  if (skipped.has(entry)) return []
  let stat
  try {
    stat = statSync(join(root, entry))
  } catch {
    return []
  }
  if (stat.isFile()) return [entry]
  if (!stat.isDirectory()) return []
  return readdirSync(join(root, entry))
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => filesUnder(root, `${entry}/${name}`, skipped))
}
