import { isFault } from '../faults/kinds.ts'
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

/** Where a reusable result is, by cache key: small enough to hand from the main process to workers. */
export type CacheIndex = Record<string, { file: string; runDir: string; passed: boolean }>

/**
 * A result is reusable unless the harness, not the agent, decided it: errors, timeouts and
 * skips (no engine) run again (REAL never caches errors). A task left unscored for want of a
 * grader is reusable: re-grading its evidence is exactly what a later run can do.
 */
export function isReusable(record: TestCaseRun): boolean {
  // A fault is the machine's, not the agent's result: the task runs again.
  if (record.status === 'passed' || record.status === 'failed') return !isFault(record)
  return record.status === 'skipped' && record.error?.kind === 'unscored'
}

/**
 * Indexes the earlier results under the results folder, once per run in the main process. A
 * corrupt or half-written file is skipped with a warning (that task simply runs again); the
 * newest result of a key wins.
 */
export function indexResults(resultsDir: string, currentRunId: string, warn: (line: string) => void): CacheIndex {
  const index: CacheIndex = {}
  const finished: Record<string, string> = {}
  for (const run of safeList(resultsDir)) {
    const runDir = join(resultsDir, run)
    if (run === currentRunId || !isDirectory(runDir)) continue
    for (const name of safeList(runDir)) {
      if (!name.endsWith('.json') || name === 'summary.json') continue
      const file = join(runDir, name)
      const record = readRecord(file, warn)
      if (!record?.cache_key || !isReusable(record)) continue
      const key = record.cache_key
      if (finished[key] !== undefined && finished[key] >= record.finished_at) continue
      finished[key] = record.finished_at
      index[key] = { file, runDir, passed: record.status === 'passed' || record.error?.kind === 'unscored' }
    }
  }
  return index
}

/** The result to reuse for a key under a mode, read from disk; null when the task must run. */
export function lookupResult(index: CacheIndex, key: string, mode: CacheMode): CachedResult | null {
  if (mode === 'refresh') return null
  const found = index[key]
  if (!found || (mode === 'rerun-failed' && !found.passed)) return null
  const record = readRecord(found.file, () => {})
  return record ? { record, runDir: found.runDir } : null
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
