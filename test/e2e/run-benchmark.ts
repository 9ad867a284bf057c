import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CHILD_RUN_ENV } from '../../src/runs/vitest-child.ts'
import { TestCaseRun } from '../../src/schema/run.ts'
import { RunSummary } from '../../src/schema/summary.ts'
import { startScriptedGrader } from '../grader/scripted-grader.ts'

export const ROOT = resolve(import.meta.dirname, '../..')
export const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

/**
 * For the gates' runs judged by their checks and the clone's state, never a step's picture (the
 * variants, the Omnizon gate's second oracle run): no step screenshots, only the final screen.
 * The Omnizon near misses took 151 s and 4.7 CPU-minutes without them, against 188 s and 5.6.
 */
export const UNREAD_STEPS = { AGENTEST_STEP_SCREENSHOTS: 'false' }

/** Whether every variant run has steps on record without their screenshots, and its final screen. */
export function variantsRecordedWithoutStepShots(records: TestCaseRun[]): boolean {
  const variants = records.filter((r) => r.variant !== null)
  return variants.every((r) => r.trajectory.length > 0 && r.trajectory.every((s) => s.screenshot === null) && r.result?.screenshot)
}

export interface BenchmarkRun {
  /** The run's main process (its containers carry it as a label). */
  pid: number
  code: number | null
  stdout: string
  stderr: string
  /** The run folder, when one was written. */
  runDir: string | null
  results: TestCaseRun[]
  summary: RunSummary | null
}

export interface RunOptions {
  /**
   * Tasks with judged checks need a grader, or they end as skipped. Runs get the scripted judge
   * (test/grader/scripted-grader.ts, a test double) unless this is false or `env` names a grader.
   */
  grader?: boolean
  /** Results folder to write into (and read earlier runs from); a fresh temp folder by default. */
  resultsDir?: string
}

/**
 * Runs `vitest run <args>` on the benchmark project in a child process, as a user would.
 * `whileRunning` gets the results folder and the child's pid, and may act on the run before it ends.
 */
export async function runBenchmark(
  args: string[],
  env: Record<string, string> = {},
  whileRunning?: (resultsDir: string, pid: number) => Promise<void>,
  options: RunOptions = {},
): Promise<BenchmarkRun> {
  const grader = options.grader === false || env.AGENTEST_GRADER_MODEL ? null : await startScriptedGrader()
  try {
    return await runChild(args, { ...grader?.env, ...env }, whileRunning, options)
  } finally {
    await grader?.close()
  }
}

async function runChild(
  args: string[],
  env: Record<string, string>,
  whileRunning: ((resultsDir: string, pid: number) => Promise<void>) | undefined,
  options: RunOptions,
): Promise<BenchmarkRun> {
  const resultsDir = options.resultsDir ?? mkdtempSync(join(tmpdir(), 'agentest-e2e-'))
  const before = new Set(existsSync(resultsDir) ? readdirSync(resultsDir) : [])
  const child = spawn(process.execPath, [VITEST, 'run', '--project', 'benchmark', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...CHILD_RUN_ENV, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', AGENTEST_RESULTS_DIR: resultsDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const closed = new Promise<number | null>((done) => child.on('close', done))
  await whileRunning?.(resultsDir, child.pid!)
  const code = await closed

  // The run this call made: the one folder that was not there before.
  const runs = readdirSync(resultsDir).filter((name) => !before.has(name) && !name.startsWith('.'))
  const runDir = runs.length === 1 ? join(resultsDir, runs[0]!) : null
  return { pid: child.pid!, code, stdout, stderr, runDir, ...(runDir ? readRun(runDir) : { results: [], summary: null }) }
}

/** The records and summary of a run folder; parsing with the schemas is the validation. */
export function readRun(runDir: string): Pick<BenchmarkRun, 'results' | 'summary'> {
  const files = readdirSync(runDir).filter((f) => f.endsWith('.json') && f !== 'summary.json')
  const results = files.map((f) => TestCaseRun.parse(JSON.parse(readFileSync(join(runDir, f), 'utf8'))))
  const summaryFile = readdirSync(runDir).includes('summary.json') ? join(runDir, 'summary.json') : null
  const summary = summaryFile ? RunSummary.parse(JSON.parse(readFileSync(summaryFile, 'utf8'))) : null
  return { results, summary }
}

/** Reads a task's recorded `/finish` JSON from a run. */
export function finishOf(run: BenchmarkRun, result: TestCaseRun): unknown {
  if (!run.runDir || !result.final_state) throw new Error(`${result.id} has no recorded final state`)
  return JSON.parse(readFileSync(join(run.runDir, result.final_state), 'utf8'))
}

/** The ids of the task files in a suite folder, as the benchmark should report them. */
export function taskIds(suite: string): string[] {
  return readdirSync(join(ROOT, 'tasks', suite))
    .filter((f) => f.endsWith('.task.ts'))
    .map((f) => f.replace(/\.task\.ts$/, ''))
    .sort()
}

/** How many task files a suite folder holds, subfolders included. */
export function taskFileCount(suite: string): number {
  return readdirSync(join(ROOT, 'tasks', suite), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.task.ts')).length
}

/** Whether the records' attempts were in flight together: each started before any of them finished. */
export function inFlightTogether(records: TestCaseRun[]): boolean {
  const lastStart = Math.max(...records.map((r) => Date.parse(r.started_at!)))
  const firstEnd = Math.min(...records.map((r) => Date.parse(r.finished_at!)))
  return lastStart < firstEnd
}
