import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { TestCaseRun } from '../../src/schema/run.ts'
import type { RunSummary } from '../../src/schema/summary.ts'
import { readRun, runBenchmark } from './run-benchmark.ts'

/**
 * One run split over three shards (Vitest's --shard with the blob reporter) and merged with
 * --merge-reports gives the same TestCaseRun files and summary as the run in one piece, with
 * every screenshot in place. Only what differs between any two runs (ids, clocks) is set aside.
 */
const TASKS = [1, 2, 4, 5, 7, 8].map((id) => `tasks/omnizon/omnizon-${id}.task.ts`)

function comparable(record: TestCaseRun) {
  const { run_id: _run, started_at: _start, finished_at: _end, duration_ms: _ms, ...rest } = record
  const steady = { ...rest, trajectory: rest.trajectory.map(({ timestamp: _t, ...step }) => step), result: rest.result && { ...rest.result, timestamp: 0 } }
  // Each run's shop listens on a port of its own.
  return JSON.parse(JSON.stringify(steady).replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, '<omnizon>')) as unknown
}

function comparableSummary(summary: RunSummary | null) {
  if (!summary) return null
  const { run_id: _id, started_at: _s, finished_at: _f, duration: _d, tasks, ...rest } = summary
  return { ...rest, tasks: tasks.map(({ duration_ms: _ms, ...task }) => task) }
}

describe('a run split over shards', { timeout: 600_000 }, () => {
  test('three shards merged equal the unsplit run: records, summary and screenshots', async () => {
    const whole = await runBenchmark(TASKS, { AGENTEST_RUN_ID: 'whole' }, undefined, { resultsDir: mkdtempSync(join(tmpdir(), 'agentest-whole-')) })
    expect(whole.code, whole.stdout.slice(-2000)).toBe(0)
    expect(whole.results).toHaveLength(TASKS.length)

    const results = mkdtempSync(join(tmpdir(), 'agentest-shards-'))
    const blobs = mkdtempSync(join(tmpdir(), 'agentest-blobs-'))
    for (const shard of [1, 2, 3]) {
      const part = await runBenchmark(
        [...TASKS, `--shard=${shard}/3`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${shard}.json`)}`],
        { AGENTEST_RUN_ID: 'split' },
        undefined,
        { resultsDir: results },
      )
      expect(part.code, part.stdout.slice(-2000)).toBe(0)
    }
    const merged = await runBenchmark([`--merge-reports=${blobs}`], { AGENTEST_RUN_ID: 'split' }, undefined, { resultsDir: results })
    expect(merged.code, `${merged.stderr}${merged.stdout.slice(-2000)}`).toBe(0)

    const split = readRun(join(results, 'split'))
    const byKey = (records: TestCaseRun[]) => Object.fromEntries(records.map((r) => [r.id, comparable(r)]))
    expect(byKey(split.results)).toEqual(byKey(whole.results))
    expect(comparableSummary(split.summary)).toEqual(comparableSummary(whole.summary))
    for (const record of split.results) {
      for (const shot of [...record.trajectory.map((s) => s.screenshot), record.result?.screenshot, record.final_state]) {
        if (shot) expect(existsSync(join(results, 'split', shot)), shot).toBe(true)
      }
    }
  })

  test('a shard without a shared run id is one line', async () => {
    const run = await runBenchmark([TASKS[0]!, '--shard=1/2'])
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe('agentest: --shard=1/2: the shards of a run and their merge write one run folder: set AGENTEST_RUN_ID=<id> (the same on each)')
  })
})
