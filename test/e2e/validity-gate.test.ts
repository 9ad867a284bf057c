import { readdirSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { startOmnizon } from '../../fixtures/apps/omnizon/index.ts'
import { finishOf, runBenchmark, taskIds, type BenchmarkRun } from './run-benchmark.ts'

const ids = taskIds('omnizon')

describe('the task-validity gate', { timeout: 600_000 }, () => {
  let first: BenchmarkRun | null = null

  test('every task passes under the oracle and records its final state', async () => {
    first = await runBenchmark(['tasks/omnizon'], { AGENTEST_AGENT: 'oracle' })
    expect(first.code, first.stderr).toBe(0)
    expect(first.results.map((r) => r.id).sort()).toEqual(ids)
    expect(first.results.every((r) => r.status === 'passed' && r.final_state !== null)).toBe(true)
  })

  test('eight tasks at once do not interfere, and a second run gives byte-identical /finish diffs', async () => {
    expect(first, 'needs the first oracle run').not.toBeNull()
    const second = await runBenchmark(['tasks/omnizon', '--maxWorkers=8'], { AGENTEST_AGENT: 'oracle' })
    expect(second.code, second.stderr).toBe(0)
    expect(second.results.every((r) => r.status === 'passed')).toBe(true)
    for (const result of first!.results) {
      const again = second.results.find((r) => r.id === result.id)!
      const before = finishOf(first!, result) as { diff: unknown; final: unknown }
      const after = finishOf(second, again) as { diff: unknown; final: unknown }
      expect(JSON.stringify(after.diff), `${result.id}: /finish diff`).toBe(JSON.stringify(before.diff))
      expect(JSON.stringify(after.final), `${result.id}: final state`).toBe(JSON.stringify(before.final))
    }
  })

  test('every near miss fails its task, and at least ten tasks carry one', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_AGENT: 'near-miss' })
    expect(run.code).toBe(1)
    expect(run.results.length).toBeGreaterThan(0)
    for (const result of run.results) {
      expect(result.variant, result.id).not.toBeNull()
      // A near miss must be caught by the checks: failed, not errored or passed.
      expect(result.status, `${result.id} [${result.variant}]: ${result.error?.message}`).toBe('failed')
      expect(result.agent_status).toBe('done')
    }
    expect(new Set(run.results.map((r) => r.id)).size).toBeGreaterThanOrEqual(10)
  })
})

describe('a web clone that dies mid-run', { timeout: 300_000 }, () => {
  test('fails the tasks that need it with a recorded error, and the run still reports', async () => {
    const omnizon = await startOmnizon()
    const killAfterTwoResults = async (resultsDir: string) => {
      for (let waited = 0; waited < 120_000; waited += 200) {
        const runs = readdirSync(resultsDir)
        const files = runs[0] ? readdirSync(`${resultsDir}/${runs[0]}`).filter((f) => f.endsWith('.json')) : []
        if (files.length >= 2) break
        await sleep(200)
      }
      await omnizon.close()
    }
    const run = await runBenchmark(
      ['tasks/omnizon', '--maxWorkers=1'],
      { AGENTEST_AGENT: 'oracle', AGENTEST_OMNIZON_URL: omnizon.url },
      killAfterTwoResults,
    )
    expect(run.code).toBe(1)
    expect(run.results.map((r) => r.id).sort(), 'a record for every task').toEqual(ids)
    const passed = run.results.filter((r) => r.status === 'passed')
    const errored = run.results.filter((r) => r.status === 'error')
    expect(passed.length).toBeGreaterThanOrEqual(2)
    expect(errored.length).toBeGreaterThan(0)
    expect(passed.length + errored.length).toBe(ids.length)
    for (const result of errored) expect(result.error?.message, result.id).toMatch(/ECONNREFUSED|omnizon|connect/i)
    expect(run.summary?.totals).toMatchObject({ total: ids.length, passed: passed.length, error: errored.length })
  })
})
