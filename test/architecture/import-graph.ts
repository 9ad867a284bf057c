import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** One import of a source file: who imports, and the repo-relative file it names. */
export interface Import {
  from: string
  to: string
}

const SOURCE = /\.(ts|tsx|mts)$/
// Static imports and re-exports (type-only ones too: they tie folders as much), and import('...').
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return SOURCE.test(entry.name) ? [path] : []
  })
}

/** Every relative import of the files under `folder` (repo-relative paths), read from the source text. */
export function importsUnder(root: string, folder: string): Import[] {
  return sourceFiles(join(root, folder)).flatMap((file) => {
    const from = relative(root, file)
    return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
      .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ from, to: relative(root, resolve(dirname(file), specifier)) }))
  })
}

/** The folder of `src/` a file belongs to (`src/task/spec.ts` -> `task`); files at its top are `(top)`. */
export function srcFolder(path: string): string | null {
  const parts = path.split('/')
  if (parts[0] !== 'src') return null
  return parts.length > 2 ? parts[1]! : '(top)'
}

/**
 * The groups of folders that import each other, directly or round a loop (Tarjan's strongly
 * connected components with more than one folder), each with the imports that tie it.
 */
export function folderCycles(imports: readonly Import[]): Array<{ folders: string[]; ties: Import[] }> {
  const edges = new Map<string, Set<string>>()
  for (const { from, to } of imports) {
    const a = srcFolder(from)
    const b = srcFolder(to)
    if (!a || !b || a === b) continue
    if (!edges.has(a)) edges.set(a, new Set())
    edges.get(a)!.add(b)
  }
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const visit = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!))
      }
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      group.push(w)
    } while (w !== v)
    if (group.length > 1) groups.push(group.sort())
  }
  for (const v of edges.keys()) if (!index.has(v)) visit(v)
  return groups.map((folders) => ({
    folders,
    ties: imports.filter(({ from, to }) => {
      const a = srcFolder(from)
      const b = srcFolder(to)
      return a !== b && a !== null && b !== null && folders.includes(a) && folders.includes(b)
    }),
  }))
}
