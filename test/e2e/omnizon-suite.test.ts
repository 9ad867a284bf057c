import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runBenchmark, taskIds } from './run-benchmark.ts'

const ids = taskIds('omnizon')

describe('tasks/omnizon end to end', { timeout: 300_000 }, () => {
  test('every task passes under the oracle, with a valid record and screenshots', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_AGENT: 'oracle' })
    expect(run.code, run.stderr + run.stdout).toBe(0)
    expect(run.stdout).toContain('agentest: evaluating agent oracle')
    expect(run.stdout).toContain('agentest summary')
    expect(run.results.map((r) => r.id).sort()).toEqual(ids)
    for (const result of run.results) {
      expect(result.status, `${result.id}: ${result.error?.message}`).toBe('passed')
      expect(result.agent_status).toBe('done')
      expect(result.trajectory.length, result.id).toBeGreaterThan(0)
      expect(result.check_results.length, result.id).toBeGreaterThan(0)
      expect(result.check_results.every((c) => c.passed)).toBe(true)
      for (const step of result.trajectory.filter((s) => s.action.type !== 'message')) {
        expect(step.screenshot, `${result.id} step ${step.index}`).toMatch(/\.png$/)
        expect(existsSync(join(run.runDir!, step.screenshot!))).toBe(true)
      }
      expect(existsSync(join(run.runDir!, result.result!.screenshot!))).toBe(true)
    }
    expect(run.summary?.totals).toMatchObject({ total: ids.length, passed: ids.length, success_rate: 1 })
    expect(run.summary?.by_suite.omnizon?.passed).toBe(ids.length)
  })

  test('every task fails under nop, and still writes a record for each', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_AGENT: 'nop' })
    expect(run.code).toBe(1)
    expect(run.results.map((r) => r.id).sort()).toEqual(ids)
    for (const result of run.results) {
      expect(result.status, result.id).toBe('failed')
      expect(result.trajectory).toEqual([])
      expect(result.check_results.some((c) => !c.passed), result.id).toBe(true)
      expect(result.error?.kind).toBe('check_failed')
    }
    expect(run.summary?.totals).toMatchObject({ total: ids.length, failed: ids.length, passed: 0, success_rate: 0 })
  })

  test("-t 'omnizon-2\\b' runs exactly that task", async () => {
    const run = await runBenchmark(['tasks/omnizon', '-t', 'omnizon-2\\b'], { AGENTEST_AGENT: 'oracle' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.results.map((r) => r.id)).toEqual(['omnizon-2'])
  })
})
