import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { Leaderboard, writeLeaderboard } from '../../src/leaderboard/index.ts'
import { recordKey } from '../../src/schema/task.ts'
import { inFlightTogether, runBenchmark } from './run-benchmark.ts'

/**
 * Epochs: every attempt is a fresh sandbox and its own record, the summary reduces them to
 * pass@k and pass^k with an interval, the cache reuses per attempt, and Vitest's retry (a hidden
 * best-of-k) is refused.
 */
const ORACLE_TASKS = ['tasks/omnizon', '-t', 'omnizon-(1|2): ']

describe('epochs', { timeout: 600_000 }, () => {
  test('the oracle over 3 epochs: 3 records per task, pass@1 = pass@3 = pass^3 = 1, reused per attempt', async () => {
    const results = mkdtempSync(join(tmpdir(), 'agentest-epochs-'))
    const first = await runBenchmark(ORACLE_TASKS, { AGENTEST_EPOCHS: '3' }, undefined, { resultsDir: results })
    expect(first.code, first.stdout.slice(-3000) + first.stderr.slice(-2000)).toBe(0)
    const files = readdirSync(first.runDir!).filter((f) => f.endsWith('.json') && f !== 'summary.json').sort()
    expect(files).toEqual(['omnizon-1.e2.json', 'omnizon-1.e3.json', 'omnizon-1.json', 'omnizon-2.e2.json', 'omnizon-2.e3.json', 'omnizon-2.json'])
    expect(first.results.map((r) => [r.id, r.epoch, r.status]).sort()).toEqual([
      ['omnizon-1', 1, 'passed'],
      ['omnizon-1', 2, 'passed'],
      ['omnizon-1', 3, 'passed'],
      ['omnizon-2', 1, 'passed'],
      ['omnizon-2', 2, 'passed'],
      ['omnizon-2', 3, 'passed'],
    ])
    // Each attempt is its own test, named so -t still picks the task; by default one after another.
    expect(first.stdout).toContain('[epoch 3/3]')
    for (const id of ['omnizon-1', 'omnizon-2']) expect(inFlightTogether(first.results.filter((r) => r.id === id)), id).toBe(false)
    const epochs = first.summary!.epochs!
    expect(epochs).toMatchObject({ epochs: 3, tasks: 2, success_rate: 1, pass_at_k: { '1': 1, '3': 1 }, pass_hat_k: { '1': 1, '3': 1 } })
    // Two tasks that always pass count as two trials, not six: Wilson(2 of 2) = [34.2%, 100%].
    expect(epochs.interval).toMatchObject({ method: 'wilson-clustered', level: 0.95, high: 1 })
    expect(epochs.interval!.low).toBeCloseTo(0.3424, 4)
    expect(first.stdout).toMatch(/pass\^3 100\.0%/)

    // A results folder with a leaderboard gets it rewritten at the end of every later run.
    await writeLeaderboard(results)
    // The same command again reuses every attempt, each from its own record.
    const second = await runBenchmark(ORACLE_TASKS, { AGENTEST_EPOCHS: '3' }, undefined, { resultsDir: results })
    expect(second.code, second.stdout.slice(-3000)).toBe(0)
    expect(second.summary!.totals).toMatchObject({ total: 6, passed: 6, cached: 6 })
    expect(second.results.map((r) => [r.epoch, r.cached_from]).sort()).toEqual([1, 1, 2, 2, 3, 3].map((e) => [e, first.summary!.run_id]))
    expect(second.stdout).toContain(`leaderboard: ${join(results, 'leaderboard.html')}`)
    const board = Leaderboard.parse(JSON.parse(readFileSync(join(results, 'leaderboard.json'), 'utf8')))
    expect(board.rows).toHaveLength(1)
    // Both runs pooled; a reused result is the same attempt as its original, so 2 tasks x 3 attempts.
    expect(board.rows[0]).toMatchObject({ agent: 'oracle', runs: [expect.anything(), expect.anything()], overall: { tasks: 2, attempts: 6, success_rate: 1 } })
  })

  test("run.concurrency: a task's epochs run at once in one worker, each in its own sandbox and shop session", async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-2.task.ts', '--maxWorkers=1'], { AGENTEST_EPOCHS: '4', AGENTEST_CONCURRENCY: '4' })
    expect(run.code, run.stdout.slice(-3000) + run.stderr.slice(-2000)).toBe(0)
    expect(run.results.map((r) => [r.epoch, r.status]).sort()).toEqual([1, 2, 3, 4].map((e) => [e, 'passed']))
    // All four were in flight together: each started before any of them finished.
    expect(inFlightTogether(run.results)).toBe(true)
    // Each attempt ordered the three phones in its own session: a session shared (or a /finish read
    // from another attempt) would show twelve orders, or none, and fail the task's exact-order check.
    for (const record of run.results) {
      expect(record.final_state, `epoch ${record.epoch}`).toBe(`${recordKey(record)}/finish.json`)
      const finish = JSON.parse(readFileSync(join(run.runDir!, record.final_state!), 'utf8')) as { final: { orders: Array<{ items: unknown[] }> } }
      expect(finish.final.orders.flatMap((order) => order.items), `epoch ${record.epoch}`).toHaveLength(3)
      expect(existsSync(join(run.runDir!, record.trajectory[0]!.screenshot!)), `epoch ${record.epoch}`).toBe(true)
    }
    expect(new Set(run.results.map((r) => r.trajectory[0]?.screenshot)).size).toBe(4)
  })

  test('Ctrl-C while four concurrent attempts act in one worker: each is on record as aborted, none lost', async () => {
    const interrupt = async (resultsDir: string, pid: number) => {
      // Every attempt has a step on disk: all four are acting at once.
      const acting = () => {
        const run = readdirSync(resultsDir).find((name) => !name.startsWith('.'))
        if (!run) return 0
        const folders = readdirSync(join(resultsDir, run), { withFileTypes: true }).filter((e) => e.isDirectory())
        return folders.filter((f) => readdirSync(join(resultsDir, run, f.name)).some((n) => n.startsWith('step-'))).length
      }
      for (let waited = 0; acting() < 4 && waited < 120_000; waited += 200) await sleep(200)
      process.kill(pid, 'SIGINT')
    }
    const run = await runBenchmark(
      ['tasks/omnizon/omnizon-2.task.ts', '--maxWorkers=1'],
      { AGENTEST_CONFIG: 'test/data/faults.config.yaml', AGENTEST_AGENT: 'hang', AGENTEST_MAX_STEPS: '1000', AGENTEST_EPOCHS: '4', AGENTEST_CONCURRENCY: '4' },
      interrupt,
    )
    expect(run.code).not.toBe(0)
    expect(run.results.map((r) => [r.epoch, r.status, r.error?.kind]).sort()).toEqual([1, 2, 3, 4].map((e) => [e, 'aborted', 'aborted']))
    for (const record of run.results) expect(record.trajectory.length, `epoch ${record.epoch}`).toBeGreaterThan(0)
    expect(run.summary?.interrupted).toBeTruthy()
  })

  test('run.concurrency out of range is one line naming the variable', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-2.task.ts'], { AGENTEST_CONCURRENCY: '0' })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toMatch(/^agentest: AGENTEST_CONCURRENCY="0": run\.concurrency: .*1/)
  })

  test('an agent right every other time: pass@1 = 2/3, pass@2 = 1, pass^2 = 1/3, pass^3 = 0', async () => {
    const counter = join(mkdtempSync(join(tmpdir(), 'agentest-alternate-')), 'count')
    writeFileSync(counter, '0')
    const run = await runBenchmark(['--config', 'test/data/fixture-tasks.vitest.config.ts'], {
      FIXTURE_TASKS: 'test/data/epoch-tasks/*.task.ts',
      AGENTEST_CONFIG: 'test/data/epochs.config.yaml',
      AGENTEST_AGENT: 'alternate',
      AGENTEST_ALTERNATE_COUNTER: counter,
    })
    expect(run.results.map((r) => [r.epoch, r.status]).sort()).toEqual([
      [1, 'passed'],
      [2, 'failed'],
      [3, 'passed'],
    ])
    const epochs = run.summary!.epochs!
    expect(epochs.success_rate).toBeCloseTo(2 / 3, 10)
    expect(epochs.pass_at_k['1']).toBeCloseTo(2 / 3, 10)
    expect(epochs.pass_at_k['2']).toBe(1)
    expect(epochs.pass_at_k['3']).toBe(1)
    expect(epochs.pass_hat_k['2']).toBeCloseTo(1 / 3, 10)
    expect(epochs.pass_hat_k['3']).toBe(0)
    expect(epochs.by_task).toEqual([expect.objectContaining({ key: 'featured-laptop', attempts: 3, passed: 2 })])
  })

  test('--retry is refused with one line pointing at epochs', async () => {
    const run = await runBenchmark([...ORACLE_TASKS, '--retry', '2'], {}, undefined, { grader: false })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('agentest: --retry 2: a retried task reports its best attempt')
    expect(run.stderr).toContain('run.epochs')
    expect(run.results).toEqual([])
  })
})
