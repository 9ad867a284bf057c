/**
 * Different task files for the comparisons that need many: copies of Omnizon's tasks, each its own
 * file with its own id (omnizon-7-c31 repeats omnizon-7's goal, checks and solution), in a folder
 * under runs/ with a Vitest config that runs that folder as the benchmark.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { OMNIZON_DIR, ROOT, taskFile } from './concurrency-oracle.ts'

export interface TaskCopies {
  /** The Vitest config that runs the copies (pass with --config, --root ROOT). */
  config: string
  /** Each copy's id and the task it repeats. */
  bases: Map<string, string>
  remove(): void
}

/** `count` task files, copies of `ids` in turn. */
export function writeTaskCopies(ids: readonly string[], count: number): TaskCopies {
  const folder = join(ROOT, 'runs', 'perf', `copies-${process.pid}`)
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true })
  const bases = new Map<string, string>()
  for (let i = 0; i < count; i++) {
    const base = ids[i % ids.length]!
    const id = `${base}-c${i + 1}`
    const source = readFileSync(join(ROOT, taskFile(base)), 'utf8')
    const renamed = source.replace(`id: '${base}'`, `id: '${id}'`)
    if (renamed === source) throw new Error(`${taskFile(base)}: no "id: '${base}'" to rename`)
    writeFileSync(join(folder, `${id}.task.ts`), rebaseImports(renamed, join(ROOT, OMNIZON_DIR), folder))
    bases.set(id, base)
  }
  const config = join(folder, 'vitest.config.ts')
  const include = `${relative(ROOT, folder)}/*.task.ts`
  writeFileSync(
    config,
    [
      "import { defineConfig } from 'vitest/config'",
      `import { agentest } from ${JSON.stringify(join(ROOT, 'plugin/index.ts'))}`,
      `export default defineConfig({ test: { experimental: { fsModuleCache: true }, projects: [{ plugins: [agentest({ root: ${JSON.stringify(ROOT)}, include: [${JSON.stringify(include)}] })], test: { name: 'benchmark' } }] } })`,
      '',
    ].join('\n'),
  )
  return { config, bases, remove: () => rmSync(folder, { recursive: true, force: true }) }
}

/** Relative imports made relative to the copy's folder. */
function rebaseImports(source: string, from: string, to: string): string {
  return source.replace(/(from\s+['"])(\.{1,2}\/[^'"]+)(['"])/g, (_, open: string, path: string, close: string) => {
    const moved = relative(to, resolve(from, path))
    return `${open}${moved.startsWith('.') ? moved : `./${moved}`}${close}`
  })
}

