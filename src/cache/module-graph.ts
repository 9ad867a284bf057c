import { readFileSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { combine, sha256 } from './hash.ts'
import { parseSource } from './source-file.ts'

export interface GraphOptions {
  /** Count only the entry's declaration, not its test bodies (a task file: its checks are re-graded, not re-run). */
  declarationOnly?: boolean
  /** Files counted elsewhere (agentest's own source), not followed. */
  skip?: (file: string) => boolean
}

/**
 * A hash of a module and the local modules it imports, transitively: relative and absolute
 * specifiers. Packages (bare specifiers, node_modules, agentest itself) are not followed.
 * Files are read afresh on every call, so an edit re-keys at once; null when the entry is unreadable.
 */
export function moduleGraphHash(entry: string, options: GraphOptions = {}): string | null {
  const seen = new Set<string>([entry])
  const pending = [entry]
  const hashes: string[] = []
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      if (file === entry) return null
      continue
    }
    const source = parseSource(file, text)
    hashes.push(sha256(file === entry && options.declarationOnly ? source.declaration : text))
    for (const specifier of source.imports) {
      const found = resolveLocal(specifier, file)
      if (!found || seen.has(found) || options.skip?.(found)) continue
      seen.add(found)
      pending.push(found)
    }
  }
  // Contents only, not paths: the same files elsewhere (another checkout) are the same task.
  return combine(hashes)
}

/** The file a local specifier names, tried as TypeScript resolves it; null for packages and unresolved ones. */
export function resolveLocal(specifier: string, from: string): string | null {
  const path = specifier.split('?')[0]!
  let base: string
  if (path.startsWith('file:')) base = fileURLToPath(path)
  else if (/^\.\.?(\/|$)/.test(path) || isAbsolute(path)) base = resolve(dirname(from), path)
  else return null
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base.replace(/\.(m|c)?js$/, '.$1ts')]
  const found = candidates.find(isFile)
  return found && !found.split(sep).includes('node_modules') ? found : null
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
