import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { TestCaseRun } from '../../src/schema/run.ts'
import { RunSummary } from '../../src/schema/summary.ts'

export const ROOT = resolve(import.meta.dirname, '../..')
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

export interface BenchmarkRun {
  code: number | null
  stdout: string
  stderr: string
  /** The run folder, when one was written. */
  runDir: string | null
  results: TestCaseRun[]
  summary: RunSummary | null
}

/** Runs `vitest run <args>` on the benchmark project in a child process, as a user would. */
export async function runBenchmark(args: string[], env: Record<string, string> = {}): Promise<BenchmarkRun> {
  const resultsDir = mkdtempSync(join(tmpdir(), 'agentest-e2e-'))
  const child = spawn(process.execPath, [VITEST, 'run', '--project', 'benchmark', ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', AGENTEST_RESULTS_DIR: resultsDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.on('close', done))

  const runs = readdirSync(resultsDir)
  const runDir = runs.length === 1 ? join(resultsDir, runs[0]!) : null
  const files = runDir ? readdirSync(runDir).filter((f) => f.endsWith('.json') && f !== 'summary.json') : []
  // Parsing with the schema is the validation: a malformed record throws here.
  const results = files.map((f) => TestCaseRun.parse(JSON.parse(readFileSync(join(runDir!, f), 'utf8'))))
  const summaryFile = runDir && readdirSync(runDir).includes('summary.json') ? join(runDir, 'summary.json') : null
  const summary = summaryFile ? RunSummary.parse(JSON.parse(readFileSync(summaryFile, 'utf8'))) : null
  return { code, stdout, stderr, runDir, results, summary }
}

/** The ids of the task files in a suite folder, as the benchmark should report them. */
export function taskIds(suite: string): string[] {
  return readdirSync(join(ROOT, 'tasks', suite))
    .filter((f) => f.endsWith('.task.ts'))
    .map((f) => f.replace(/\.task\.ts$/, ''))
    .sort()
}
