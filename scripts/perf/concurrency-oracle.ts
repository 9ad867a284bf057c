/**
 * The recording the slow model replays: one oracle run of the Omnizon tasks into a temporary
 * results folder, made once per process. Each record's end state (/finish) is what every later
 * run of the task, harness or bare, must reach again.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { loadRunFolder } from '../../src/agents/replay/recorded-run.ts'
import { vitestBin } from '../../src/runs/vitest-child.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { runMeasuredChild } from './concurrency-child.ts'
import { startSlowModel } from './concurrency-model.ts'

export const ROOT = resolve(import.meta.dirname, '../..')
export const OMNIZON_DIR = 'tasks/omnizon'

/** The part of Omnizon's /finish JSON a comparison checks. */
export const Finish = z.object({ initial: z.record(z.string(), z.unknown()), diff: z.array(z.unknown()) }).loose()
export type Finish = z.infer<typeof Finish>

export interface OracleRecording {
  dir: string
  runs: TestCaseRun[]
  byId: Map<string, TestCaseRun>
  /** A recorded task's end state. */
  finish(id: string): Finish
}

/** Every Omnizon task id, in the files' order (omnizon-1 … omnizon-30). */
export function omnizonTaskIds(): string[] {
  return readdirSync(join(ROOT, OMNIZON_DIR))
    .filter((name) => name.endsWith('.task.ts'))
    .map((name) => name.slice(0, -'.task.ts'.length))
    .sort((a, b) => Number(a.split('-').pop()) - Number(b.split('-').pop()))
}

export const taskFile = (id: string) => `${OMNIZON_DIR}/${id}.task.ts`

/** Reads a record's /finish evidence from its run folder. */
export function readFinish(dir: string, run: TestCaseRun): Finish {
  if (!run.final_state) throw new Error(`${run.id}: the record has no final state`)
  return Finish.parse(JSON.parse(readFileSync(join(dir, run.final_state), 'utf8')))
}

const made = new Map<string, Promise<OracleRecording>>()
let reused: string | null = null
let keep = false

/** Keeps the recorded oracle run when this process exits (its folder is logged), to pass to reuseOracle later. */
export function keepOracle(): void {
  keep = true
}

/** Replays an oracle run folder made earlier (a run id `oracle` under AGENTEST_RESULTS_DIR, say) instead of recording one. */
export function reuseOracle(dir: string): void {
  reused = resolve(dir)
}

function load(dir: string, ids: readonly string[]): OracleRecording {
  const runs = loadRunFolder(dir)
  const byId = new Map(runs.map((r) => [r.id, r]))
  const missing = ids.filter((id) => byId.get(id)?.status !== 'passed')
  if (missing.length) throw new Error(`${dir}: the oracle did not pass ${missing.join(', ')} there`)
  return { dir, runs, byId, finish: (id) => readFinish(dir, byId.get(id)!) }
}

/** The oracle's recording of these tasks (made on first use in this process). */
export function oracleRecording(ids: readonly string[], log: (line: string) => void): Promise<OracleRecording> {
  const key = [...ids].sort().join(',')
  let recording = made.get(key)
  if (!recording) made.set(key, (recording = reused ? Promise.resolve(load(reused, ids)) : record(ids, log)))
  return recording
}

async function record(ids: readonly string[], log: (line: string) => void): Promise<OracleRecording> {
  const results = mkdtempSync(join(tmpdir(), 'agentest-perf-oracle-'))
  log(`recording the oracle on ${ids.length} task(s) into ${join(results, 'oracle')}`)
  process.once('exit', () => {
    if (!keep) rmSync(results, { recursive: true, force: true })
  })
  // Only the judge is used (omnizon-6's judged check); the oracle calls no model.
  const judge = await startSlowModel([], 0)
  try {
    const run = await runMeasuredChild({
      command: process.execPath,
      args: [vitestBin(ROOT), 'run', '--project', 'benchmark', ...ids.map(taskFile), '--maxWorkers=2'],
      cwd: ROOT,
      env: {
        ...judge.env,
        CI: 'true',
        NO_COLOR: '1',
        AGENTEST_AGENT: 'oracle',
        AGENTEST_RESULTS_DIR: results,
        AGENTEST_RUN_ID: 'oracle',
        AGENTEST_CACHE: 'refresh',
        AGENTEST_PROGRESS_MS: '0',
      },
      intervalMs: 5000,
    })
    const dir = join(results, 'oracle')
    try {
      const recording = load(dir, ids)
      log(`oracle recorded in ${run.wall_s.toFixed(1)} s`)
      return recording
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (vitest exit ${run.code}):\n${run.stderr.slice(-2000)}`)
    }
  } finally {
    await judge.close()
  }
}
