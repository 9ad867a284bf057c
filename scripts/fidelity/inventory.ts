import { readdirSync, statSync } from 'node:fs'
import { basename, dirname, extname, join, relative } from 'node:path'
import { loadRealTasks } from '../../fixtures/apps/omnizon/real/load.ts'
import { planCase } from '../../fixtures/apps/omnizon/real/plan.ts'
import { loadCases } from '../../src/osuniverse/load.ts'

/** One upstream file as agentest's loaders take it. */
export interface FileRow {
  /** `REAL v1/tasks`, `OSUniverse testcases`: the suite and its folder under the upstream one. */
  suite: string
  /** The file, relative to the upstream folder. */
  file: string
  /** agentest's task id, when it loaded. */
  id: string | null
  loaded: boolean
  /** Why it does not run here (or why it did not load); null when it runs. */
  reason: string | null
}

/** A folder of one suite's files, and the task file and variable that run it. */
export interface SuiteFolder {
  suite: string
  kind: 'real' | 'osuniverse'
  dir: string
  rows: FileRow[]
}

const DEPTH = 4

/**
 * The REAL and OSUniverse folders under `root`: every folder holding REAL task files (`*.json`),
 * and every folder whose subfolders hold OSUniverse cases (`*.yaml`, OSUniverse's
 * testcases/<category>/), each loaded by agentest's own loader, a row per file.
 */
export function inventory(root: string): SuiteFolder[] {
  const json = new Set<string>()
  const yaml = new Set<string>()
  walk(root, 0, (file) => {
    if (extname(file) === '.json') json.add(dirname(file))
    if (['.yaml', '.yml'].includes(extname(file))) yaml.add(dirname(dirname(file)))
  })
  const shown = (dir: string) => relative(root, dir) || basename(root)
  return [
    ...[...json].sort().map((dir) => realFolder(root, dir, `REAL ${shown(dir)}`)),
    ...[...yaml].sort().map((dir) => osuniverseFolder(root, dir, `OSUniverse ${shown(dir)}`)),
  ]
}

function walk(dir: string, depth: number, visit: (file: string) => void): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (depth < DEPTH && !name.startsWith('.') && name !== 'node_modules') walk(path, depth + 1, visit)
    } else visit(path)
  }
}

function realFolder(root: string, dir: string, suite: string): SuiteFolder {
  const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort()
  try {
    const rows = loadRealTasks(dir).map((real): FileRow => {
      const plan = planCase(real)
      // The reason names the file already; the table does too.
      return { suite, file: relative(root, real.file), id: real.id, loaded: true, reason: plan.skip?.replaceAll(` in ${real.file}`, '') ?? null }
    })
    return { suite, kind: 'real', dir, rows }
  } catch (error) {
    return { suite, kind: 'real', dir, rows: files.map((name) => notLoaded(suite, relative(root, join(dir, name)), error)) }
  }
}

function osuniverseFolder(root: string, dir: string, suite: string): SuiteFolder {
  try {
    const rows = loadCases(dir, { cwd: root }).map((loaded): FileRow => ({ suite, file: relative(root, loaded.file), id: loaded.id, loaded: true, reason: loaded.skip }))
    return { suite, kind: 'osuniverse', dir, rows }
  } catch (error) {
    return { suite, kind: 'osuniverse', dir, rows: [notLoaded(suite, relative(root, dir), error)] }
  }
}

function notLoaded(suite: string, file: string, error: unknown): FileRow {
  const message = error instanceof Error ? error.message : String(error)
  // The loader names every bad file: this one's line, if it is among them.
  const line = message.split('\n').find((l) => l.includes(file)) ?? message.split('\n')[0]!
  return { suite, file, id: null, loaded: false, reason: `did not load: ${line}` }
}

/**
 * A reason's kind, for the counts: its first sentence with the specifics (URLs, quoted names,
 * numbers in brackets) taken out, so every case skipped for the same cause counts together.
 */
export function reasonKind(reason: string): string {
  return reason
    .split(/;|\n/)[0]!
    .replaceAll(/https?:\/\/\S+/g, '<url>')
    .replaceAll(/`[^`]*`|"[^"]*"/g, '<…>')
    .replaceAll(/<…>(, <…>)+/g, '<…>')
    .replaceAll(/\[\d+\]/g, '[n]')
    .trim()
}
