import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { TestCaseRun } from '../schema/run.ts'

/** How earlier results are used: reuse them, ignore them, only them, or reuse only passes. */
export type CacheMode = 'use' | 'refresh' | 'only' | 'rerun-failed'

/** A reusable earlier result: the record and the run folder its evidence paths are relative to. */
export interface CachedResult {
  record: TestCaseRun
  runDir: string
}

/**
 * A result is reusable unless the harness, not the agent, decided it: errors, timeouts and
 * skips (no engine) run again (REAL never caches errors). A task left unscored for want of a
 * grader is reusable: re-grading its evidence is exactly what a later run can do.
 */
export function isReusable(record: TestCaseRun): boolean {
  if (record.status === 'passed' || record.status === 'failed') return record.error?.kind !== 'sandbox_gone'
  return record.status === 'skipped' && record.error?.kind === 'unscored'
}

/**
 * The earlier results under the results folder, indexed by cache key. Built once per worker;
 * a corrupt or half-written file is skipped with a warning (that task simply runs again).
 */
export class RunCache {
  private index: Map<string, CachedResult> | null = null

  constructor(
    private readonly resultsDir: string,
    private readonly currentRunId: string,
    private readonly warn: (line: string) => void,
  ) {}

  lookup(key: string, mode: CacheMode): CachedResult | null {
    if (mode === 'refresh') return null
    const found = this.load().get(key) ?? null
    if (!found) return null
    if (mode === 'rerun-failed' && found.record.status !== 'passed' && found.record.error?.kind !== 'unscored') return null
    return found
  }

  private load(): Map<string, CachedResult> {
    if (this.index) return this.index
    const index = new Map<string, CachedResult>()
    for (const run of safeList(this.resultsDir)) {
      const runDir = join(this.resultsDir, run)
      if (run === this.currentRunId || !isDirectory(runDir)) continue
      for (const file of safeList(runDir)) {
        if (!file.endsWith('.json') || file === 'summary.json') continue
        const record = readRecord(join(runDir, file), this.warn)
        if (!record?.cache_key || !isReusable(record)) continue
        const earlier = index.get(record.cache_key)
        // The newest result wins.
        if (!earlier || earlier.record.finished_at < record.finished_at) index.set(record.cache_key, { record, runDir })
      }
    }
    this.index = index
    return index
  }
}

function readRecord(file: string, warn: (line: string) => void): TestCaseRun | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    warn(`ignoring ${file}: not readable JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); that task runs again`)
    return null
  }
  const parsed = TestCaseRun.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    warn(`ignoring ${file}: not a TestCaseRun (${issue?.path.join('.') || 'body'}: ${issue?.message}); that task runs again`)
    return null
  }
  return parsed.data
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
