/**
 * Many Omnizon attempts in flight at once. Epochs do not give that: a task's epochs are tests of
 * one file, which Vitest runs one after another, so at most one per task file is ever in flight.
 * So the attempts are task files: copies of tasks/omnizon's (omnizon-1-r2, ...), each its own
 * file, under scratch/ (ignored by git, outside the benchmark project's tasks/** glob, so other
 * runs never pick them up), with a vitest config that includes only them.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { OMNIZON_DIR, ROOT } from './concurrency-oracle.ts'

export interface TaskCopies {
  /** The vitest config that runs the copies as the `benchmark` project. */
  config: string
  /** Each attempt's task id and the recorded task it repeats. */
  attempts: Map<string, string>
  remove(): void
}

/** `count` attempts cycling through `ids`: the first round keeps the ids, later rounds get -r2, -r3, ... */
export function writeCopies(ids: readonly string[], count: number): TaskCopies {
  const dir = join(ROOT, 'scratch', `perf-many-${process.pid}-${Date.now()}`)
  const tasks = join(dir, 'tasks', 'omnizon')
  mkdirSync(tasks, { recursive: true })
  const attempts = new Map<string, string>()
  const support = join(ROOT, OMNIZON_DIR)
  for (let n = 0; n < count; n++) {
    const base = ids[n % ids.length]!
    const repeat = Math.floor(n / ids.length) + 1
    const id = repeat === 1 ? base : `${base}-r${repeat}`
    const source = readFileSync(join(ROOT, OMNIZON_DIR, `${base}.task.ts`), 'utf8')
    const declared = `id: '${base}',`
    if (source.split(declared).length !== 2) throw new Error(`${base}.task.ts: expected one "${declared}" to rename`)
    // The copy's support imports point back at the suite's own files.
    const text = source.replace(declared, `id: '${id}',`).replaceAll(`from './`, `from '${support}/`)
    writeFileSync(join(tasks, `${id}.task.ts`), text)
    attempts.set(id, base)
  }
  const config = join(dir, 'vitest.config.ts')
  const include = `${relative(ROOT, tasks)}/*.task.ts`
  writeFileSync(
    config,
    [
      `import { defineConfig } from 'vitest/config'`,
      `import { agentest } from '${join(ROOT, 'plugin/index.ts')}'`,
      `// Written by scripts/perf/concurrency-copies.ts for one run, then removed.`,
      `export default defineConfig({ test: { projects: [{ plugins: [agentest({ include: ['${include}'] })], test: { name: 'benchmark' } }] } })`,
      '',
    ].join('\n'),
  )
  return { config, attempts, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
