import { spawn } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { recordedTurn } from '../../fixtures/model-server/index.ts'
import { modelBoundIdeal, recordedModelSeconds } from '../../scripts/perf/concurrency-ideal.ts'
import { oracleRecording } from '../../scripts/perf/concurrency-oracle.ts'
import { sampleTree, TreeSampler } from '../../scripts/perf/memory.ts'
import { compare } from '../../scripts/perf/p3-concurrency.ts'
import { compare as compareP5 } from '../../scripts/perf/p5-many.ts'
import { compare as compareP6 } from '../../scripts/perf/p6-different.ts'
import { descendants } from '../../scripts/perf/proc.ts'

describe('the model-bound ideal', () => {
  test('is the longest task when it dominates, else total model time over the concurrency', () => {
    expect(modelBoundIdeal([25, 3, 3], 16)).toBe(25)
    expect(modelBoundIdeal([10, 10, 10, 10], 2)).toBe(20)
    expect(modelBoundIdeal([12, 2, 2, 2, 2], 2)).toBe(12)
    expect(modelBoundIdeal([6, 6, 6], 1)).toBe(18)
    expect(modelBoundIdeal([], 4)).toBe(0)
    expect(() => modelBoundIdeal([1], 0)).toThrow(/at least 1/)
  })

  test("a recorded task's model time: a call per action plus the answer, each one delay", () => {
    const run = { trajectory: [{ action: { type: 'click' } }, { action: { type: 'type' } }, { action: { type: 'message' } }] }
    expect(recordedModelSeconds(run, 1000)).toBe(3)
    expect(recordedModelSeconds({ trajectory: [] }, 5000)).toBe(5)
  })
})

describe('the memory sampler', () => {
  test('sums the RSS of a process tree, grandchildren included', async () => {
    // A child holding ~64 MB, which starts a grandchild of its own.
    const child = spawn(process.execPath, ['-e', "const b = Buffer.alloc(64e6, 1); require('node:child_process').spawn('sleep', ['30']); setTimeout(() => b, 30000)"], { stdio: 'ignore' })
    try {
      await new Promise((done) => setTimeout(done, 1000))
      const pids = descendants(child.pid!)
      expect(pids[0]).toBe(child.pid)
      expect(pids.length).toBe(2)
      const { sample } = sampleTree(child.pid!, { pss: true, startedAt: Date.now() })
      expect(sample.rss_mb).toBeGreaterThan(64)
      expect(sample.pss_mb).toBeGreaterThan(0)
      expect(sample.processes).toBe(2)
      expect(sample.by_kind.root?.count).toBe(1)
      expect(sample.by_kind.root?.pss_mb).toBeGreaterThan(0)

      const sampler = new TreeSampler(child.pid!, { intervalMs: 100, inFlight: () => 3 }).start()
      await sampler.ready()
      await new Promise((done) => setTimeout(done, 350))
      const memory = sampler.stop()
      expect(memory.samples).toBeGreaterThanOrEqual(3)
      expect(memory.peak_rss_mb).toBeGreaterThan(64)
      expect(memory.in_flight_at_peak).toBe(3)
      expect(sampler.lastPids).toEqual(pids)
      expect(memory.cpu_by_kind.root).toBeGreaterThanOrEqual(0)
      expect(memory.peak_by_kind.root?.count).toBe(1)
    } finally {
      for (const pid of descendants(child.pid!).reverse()) process.kill(pid, 'SIGKILL')
    }
  })

  test('a process that is gone has no tree', () => {
    expect(descendants(2 ** 22 + 12345)).toEqual([])
  })
})

describe('P3 in a reduced form', () => {
  const tasks = ['omnizon-3', 'omnizon-7', 'omnizon-28', 'omnizon-29']
  const log = () => undefined

  test('four short tasks, two at once, a model answering in 100 ms: every task correct on both sides, the ideal from the model calls', { timeout: 300_000 }, async () => {
    const rows = await compare({ rounds: 1, log, tasks, concurrency: 2, delayMs: 100 })
    expect(rows.map((r) => r.id)).toEqual(['P3a', 'P3b', 'P4'])
    for (const row of rows) expect(row.problems, row.id).toEqual([])

    // The replayed calls are the recording's: a call per action, then the answer.
    const oracle = await oracleRecording(tasks, log)
    const ideal = modelBoundIdeal(tasks.map((id) => recordedModelSeconds(oracle.byId.get(id)!, 100)), 2)
    const [p3a, p3b, p4] = rows
    expect(p3a!.bare.median_s).toBeCloseTo(ideal, 6)
    expect(p3a!.ratio).toBeCloseTo(p3a!.harness.median_s / ideal, 6)
    expect(p3b!.bare.median_s).toBeGreaterThan(0)
    expect(p3b!.harness.median_s).toBe(p3a!.harness.median_s)
    expect(p4).toMatchObject({ unit: 'MB', goal: '≤ 1.5x' })
    expect(p4!.harness.median_s).toBeGreaterThan(0)
    expect(p4!.ratio).toBeCloseTo(p4!.harness.median_s / p4!.bare.median_s, 6)

    // The slow model holds each reply for the delay it was given.
    const turn = recordedTurn(oracle.byId.get('omnizon-3')!, 0, { delayMs: 250 })
    expect(turn).toMatchObject({ delay_ms: 250, actions: [expect.objectContaining({ type: 'click' })] })
    expect(recordedTurn(oracle.byId.get('omnizon-3')!, 99, { delayMs: 250 })).toMatchObject({ delay_ms: 250, answer: expect.any(String) })
  })
})

describe('P6 in a reduced form', () => {
  test('four different task files in flight in one worker, a model answering in 500 ms: every copy correct on both sides, memory against the bare script', { timeout: 300_000 }, async () => {
    const rows = await compareP6({ rounds: 1, log: () => undefined, tasks: ['omnizon-3', 'omnizon-7'], files: 4, delayMs: 500 })
    expect(rows.map((r) => r.id)).toEqual(['P6a', 'P6b', 'P6c'])
    for (const row of rows) expect(row.problems, row.id).toEqual([])
    const notes = rows[0]!.notes.join('\n')
    expect(notes).toContain('one Vitest worker runs them all at once')
    // All four conversations were open together: four files in flight in the one worker.
    expect(Number(/at most (\d+)\)/.exec(notes)?.[1])).toBe(4)
    expect(rows[1]).toMatchObject({ unit: 'MB', goal: '≤ 1.5x' })
    expect(rows[1]!.bare.median_s).toBeGreaterThan(0)
  })
})

describe('P5 in a reduced form', () => {
  test('two tasks, four epochs each, two workers at run.concurrency 4, a model answering in 500 ms: every attempt correct, several per worker in flight together', { timeout: 300_000 }, async () => {
    const rows = await compareP5({ rounds: 1, log: () => undefined, tasks: ['omnizon-3', 'omnizon-7'], workers: 2, attempts: 8, delayMs: 500 })
    expect(rows.map((r) => r.id)).toEqual(['P5a', 'P5b'])
    for (const row of rows) expect(row.problems, row.id).toEqual([])
    const notes = rows[0]!.notes.join('\n')
    expect(notes).toContain('4 epochs of each of 2 Omnizon tasks')
    // Two workers holding one attempt each would never have more than two conversations open.
    const most = Number(/at most (\d+)\)/.exec(notes)?.[1])
    expect(most).toBeGreaterThan(2)
    expect(rows[1]!.harness.median_s).toBeGreaterThan(0)
  })
})
