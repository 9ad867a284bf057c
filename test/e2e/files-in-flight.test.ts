import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { descendantsOf, isAlive } from '../support/processes.ts'
import { runBenchmark } from './run-benchmark.ts'

/**
 * run.concurrency sets how many different tasks are in flight, not the number of worker
 * processes: one worker runs several task files at once, each still a test file that Vitest
 * collects, filters and reports as usual.
 */
const FILES = [1, 2, 3, 4, 5, 7].map((n) => `tasks/omnizon/omnizon-${n}.task.ts`)

/** The most records running at one moment. */
function mostAtOnce(records: TestCaseRun[]): number {
  const edges = records.flatMap((r) => [
    { at: Date.parse(r.started_at!), step: 1 },
    { at: Date.parse(r.finished_at!), step: -1 },
  ])
  edges.sort((a, b) => a.at - b.at || a.step - b.step)
  let now = 0
  let most = 0
  for (const edge of edges) most = Math.max(most, (now += edge.step))
  return most
}

/** Vitest's worker processes below the run's main process, sampled until it ends. */
function workerSampler() {
  const workers = new Set<number>()
  return {
    workers,
    sample: async (_results: string, pid: number) => {
      while (isAlive(pid)) {
        for (const p of descendantsOf(pid)) if (p.command.includes('vitest/dist/workers/forks.js')) workers.add(p.pid)
        await sleep(50)
      }
    },
  }
}

describe('different tasks in flight in one worker', { timeout: 300_000 }, () => {
  test('six task files, run.concurrency 3: one worker, three at a time, every record passed', async () => {
    const sampler = workerSampler()
    const run = await runBenchmark(FILES, { AGENTEST_AGENT: 'oracle', AGENTEST_CONCURRENCY: '3' }, sampler.sample)
    expect(run.code, run.stdout.slice(-3000) + run.stderr.slice(-2000)).toBe(0)
    expect(run.results.map((r) => [r.id, r.status]).sort()).toEqual(FILES.map((f) => [/omnizon-\d+/.exec(f)![0], 'passed']).sort())
    expect(mostAtOnce(run.results)).toBe(3)
    expect(sampler.workers.size).toBe(1)
    // Vitest still reports each file on its own.
    for (const file of FILES) expect(run.stdout).toMatch(new RegExp(`✓ \\|benchmark\\| ${file.replaceAll('.', '\\.')} \\(1 test\\)`))
  })

  test('-t still picks tasks, and a failing task leaves the others in flight alone', async () => {
    const run = await runBenchmark([...FILES, '-t', 'omnizon-(2|3|5): '], { AGENTEST_AGENT: 'nop', AGENTEST_CONCURRENCY: '3' })
    expect(run.results.map((r) => [r.id, r.status]).sort()).toEqual([
      ['omnizon-2', 'failed'],
      ['omnizon-3', 'failed'],
      ['omnizon-5', 'failed'],
    ])
    expect(mostAtOnce(run.results)).toBe(3)
    expect(run.summary!.totals).toMatchObject({ total: 3, failed: 3 })
  })

  test('--maxWorkers names the workers: each then runs one file at a time', async () => {
    const sampler = workerSampler()
    const run = await runBenchmark([...FILES.slice(0, 3), '--maxWorkers=3'], { AGENTEST_AGENT: 'oracle', AGENTEST_CONCURRENCY: '2' }, sampler.sample)
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
    expect(sampler.workers.size).toBe(3)
  })
})
