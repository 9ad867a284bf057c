/**
 * The harness side's unit of work: one `vitest run --project benchmark ...` in a child process,
 * timed from spawn to exit, into a temporary results folder. Its run folder is read back for
 * the correctness checks.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { readRunFolder, type RunFolder } from '../../src/runs/folder.ts'
import { runBenchmarkChild } from '../../src/runs/vitest-child.ts'

export const ROOT = resolve(import.meta.dirname, '../..')

export interface TimedRun {
  /** Wall time of the vitest process, spawn to exit. */
  seconds: number
  code: number | null
  /** The run folder; `folder` is null when the run wrote no summary. */
  runDir: string
  resultsDir: string
  folder: RunFolder | null
  /** Vitest's own "tests" share of its Duration line, in seconds, when it printed one. */
  testsSeconds: number | null
  /** The last lines of its output, to quote when it failed. */
  tail: string
}

export async function timedVitestRun(args: string[], env: Record<string, string>, runId: string): Promise<TimedRun> {
  const resultsDir = mkdtempSync(join(tmpdir(), 'agentest-perf-'))
  const started = performance.now()
  const child = await runBenchmarkChild(ROOT, args, { CI: 'true', AGENTEST_RESULTS_DIR: resultsDir, AGENTEST_RUN_ID: runId, ...env })
  const seconds = (performance.now() - started) / 1000
  const runDir = join(resultsDir, runId)
  const folder = existsSync(join(runDir, 'summary.json')) ? readRunFolder(runDir, () => undefined) : null
  const output = `${child.stdout}\n${child.stderr}`
  return { seconds, code: child.code, runDir, resultsDir, folder, testsSeconds: vitestTestsSeconds(output), tail: output.trim().split('\n').slice(-15).join('\n') }
}

/** "Duration  32.23s (transform 1.36s, setup 0ms, import 2.64s, tests 24.34s, ...)": the tests part. */
function vitestTestsSeconds(output: string): number | null {
  const match = /Duration\s.*\btests ([\d.]+)(ms|s)\b/.exec(output)
  if (!match) return null
  return Number(match[1]) / (match[2] === 'ms' ? 1000 : 1)
}
