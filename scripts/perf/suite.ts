/**
 * `npm run perf -- suite`: the same tasks run afresh with each worker count, then once more
 * reusing the last run's results (the cache), one row per run. Every run uses the configured
 * agent and its own temporary results folder, so nothing under runs/ changes.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { readRunFolder } from '../../src/runs/folder.ts'
import { durationStats } from '../../src/runs/stats.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

interface Row {
  config: string
  wall_s: number
  tasks: number
  passed: number
  cached: number
  task_mean_s: number | null
  task_p90_s: number | null
  steps: number
}

export interface SuiteOptions {
  targets: string[]
  workers: number[]
  filter: string | undefined
  fail: (message: string) => never
}

/** One `vitest run` of the benchmark project into `resultsDir`; the run's row, from its folder. */
async function measure(config: string, args: string[], resultsDir: string, env: Record<string, string>, fail: (m: string) => never): Promise<Row> {
  const started = performance.now()
  const child = spawn(process.execPath, [VITEST, 'run', '--project', 'benchmark', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, CI: 'true', NO_COLOR: '1', AGENTEST_RESULTS_DIR: resultsDir, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  const code = await new Promise<number | null>((done) => child.on('close', done))
  const wall = (performance.now() - started) / 1000
  const runDir = join(resultsDir, env.AGENTEST_RUN_ID!)
  if (!existsSync(join(runDir, 'summary.json'))) fail(`${config}: the run wrote no summary (vitest exit ${code})\n${stderr.trim()}`)
  const folder = readRunFolder(runDir, () => undefined)
  const runs = folder.records.map((r) => r.run)
  const totals = folder.summary!.totals
  const durations = durationStats(runs.map((r) => Date.parse(r.finished_at) - Date.parse(r.started_at)))
  const seconds = (ms: number | null) => (ms === null ? null : ms / 1000)
  return {
    config,
    wall_s: wall,
    tasks: totals.total,
    passed: totals.passed,
    cached: totals.cached,
    task_mean_s: seconds(durations.mean_ms),
    task_p90_s: seconds(durations.p90_ms),
    steps: runs.filter((r) => !r.cached).reduce((sum, r) => sum + r.trajectory.length, 0),
  }
}

function table(rows: Row[]): string {
  const s = (v: number | null) => (v === null ? '—' : `${v.toFixed(1)} s`)
  const lines = [
    ['config', 'wall', 'tasks', 'passed', 'cached', 'task mean', 'task p90', 'steps', 'steps/s'],
    ...rows.map((r) => [r.config, s(r.wall_s), String(r.tasks), String(r.passed), String(r.cached), s(r.task_mean_s), s(r.task_p90_s), String(r.steps), (r.steps / r.wall_s).toFixed(1)]),
  ]
  const widths = lines[0]!.map((_, col) => Math.max(...lines.map((l) => l[col]!.length)))
  return lines.map((l) => l.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ')).join('\n')
}

/** Runs the suite with each worker count, then reused, and returns the printed table. */
export async function timeSuite({ targets, workers, filter, fail }: SuiteOptions): Promise<string> {
  const filterArgs = filter ? ['-t', filter] : []
  const rows: Row[] = []
  const folders: string[] = []
  try {
    for (const count of workers) {
      const dir = mkdtempSync(join(tmpdir(), 'agentest-perf-'))
      folders.push(dir)
      const config = `${count} worker${count === 1 ? '' : 's'}`
      process.stderr.write(`perf: ${config}…\n`)
      rows.push(await measure(config, [...targets, ...filterArgs, `--maxWorkers=${count}`], dir, { AGENTEST_CACHE: 'refresh', AGENTEST_RUN_ID: `perf-w${count}` }, fail))
    }
    // The same command again over the last run's results: what a resumed or re-graded run costs.
    const last = workers.at(-1)!
    process.stderr.write('perf: reuse…\n')
    rows.push(await measure(`${last} worker${last === 1 ? '' : 's'}, reused`, [...targets, ...filterArgs, `--maxWorkers=${last}`], folders.at(-1)!, { AGENTEST_CACHE: 'use', AGENTEST_RUN_ID: `perf-w${last}-reused` }, fail))
  } finally {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  }
  return table(rows)
}
