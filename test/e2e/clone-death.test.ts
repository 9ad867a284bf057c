import { readdirSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { startOmnizon } from '../../fixtures/apps/omnizon/index.ts'
import { runBenchmark, taskIds } from './run-benchmark.ts'
import { isFaulted } from '../../src/runs/outcome.ts'

const ids = taskIds('omnizon')

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
    // The clone's death is not the agent's doing: those tasks are faulted (in no rate), not errors.
    const faulted = errored.filter(isFaulted).length
    expect(run.summary?.totals).toMatchObject({ total: ids.length, passed: passed.length, error: errored.length - faulted, faulted })
  })
})
