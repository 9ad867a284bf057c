/**
 * How fast a suite runs, side by side in one invocation: the same tasks run afresh with each
 * worker count, then once more reusing the last run's results (the cache):
 *
 *   npm run perf -- [tasks/omnizon] [--workers 1,2,4] [-t 'omnizon-(1|2)\b']
 *
 * Every run uses the configured agent (AGENTEST_AGENT etc. apply) and its own temporary results
 * folder, so nothing under runs/ changes. One row per run: wall time, tasks, passed, cached,
 * task duration mean and p90, recorded steps and steps per second.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { readRunFolder } from '../src/runs/folder.ts'
import { durationStats } from '../src/runs/stats.ts'

const USAGE = "usage: npm run perf -- [tasks/<suite>] [--workers 1,2,4] [-t '<pattern>']"
const ROOT = resolve(import.meta.dirname, '..')
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

function fail(message: string): never {
  process.stderr.write(`perf: ${message}\n`)
  process.exit(1)
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { workers: { type: 'string', default: '1,2,4' }, t: { type: 'string', short: 't' }, help: { type: 'boolean', short: 'h' } },
    })
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
  }
}

/** One `vitest run` of the benchmark project into `resultsDir`; the run's row, from its folder. */
async function measure(config: string, args: string[], resultsDir: string, env: Record<string, string>): Promise<Row> {
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

async function main(): Promise<void> {
  const { values, positionals } = parse()
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  const workers = values.workers.split(',').map((w) => Number(w.trim()))
  if (workers.length === 0 || workers.some((w) => !Number.isInteger(w) || w < 1)) fail(`--workers: positive integers separated by commas: ${values.workers}`)
  const targets = positionals.length > 0 ? positionals : ['tasks/omnizon']
  const filter = values.t ? ['-t', values.t] : []

  const rows: Row[] = []
  const folders: string[] = []
  try {
    for (const count of workers) {
      const dir = mkdtempSync(join(tmpdir(), 'agentest-perf-'))
      folders.push(dir)
      const config = `${count} worker${count === 1 ? '' : 's'}`
      process.stderr.write(`perf: ${config}…\n`)
      rows.push(await measure(config, [...targets, ...filter, `--maxWorkers=${count}`], dir, { AGENTEST_CACHE: 'refresh', AGENTEST_RUN_ID: `perf-w${count}` }))
    }
    // The same command again over the last run's results: what a resumed or re-graded run costs.
    const last = workers.at(-1)!
    process.stderr.write('perf: reuse…\n')
    rows.push(await measure(`${last} worker${last === 1 ? '' : 's'}, reused`, [...targets, ...filter, `--maxWorkers=${last}`], folders.at(-1)!, { AGENTEST_CACHE: 'use', AGENTEST_RUN_ID: `perf-w${last}-reused` }))
  } finally {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  }
  process.stdout.write(`${table(rows)}\n`)
}

await main()
