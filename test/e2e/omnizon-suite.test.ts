import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { finishOf, runBenchmark, taskIds, type BenchmarkRun } from './run-benchmark.ts'

const ids = taskIds('omnizon')

/** The task-validity gate: oracle passes all, nop and every near miss fail, runs are deterministic. */
describe('tasks/omnizon end to end', { timeout: 600_000 }, () => {
  let oracle: BenchmarkRun | null = null

  test('every task passes under the oracle, with a valid record, screenshots and final state', async () => {
    oracle = await runBenchmark(['tasks/omnizon'], { AGENTEST_AGENT: 'oracle' })
    const run = oracle
    expect(run.code, run.stderr + run.stdout.slice(-3000)).toBe(0)
    expect(run.stdout).toContain('agentest: evaluating agent oracle')
    expect(run.stdout).toContain('agentest summary')
    expect(run.results.map((r) => r.id).sort()).toEqual(ids)
    expect(ids.length).toBeGreaterThanOrEqual(30)
    for (const result of run.results) {
      expect(result.status, `${result.id}: ${result.error?.message}`).toBe('passed')
      expect(result.agent_status).toBe('done')
      expect(result.difficulty, result.id).not.toBeNull()
      expect(result.challenge_type, result.id).not.toBeNull()
      expect(result.trajectory.length, result.id).toBeGreaterThan(0)
      expect(result.check_results.length, result.id).toBeGreaterThan(0)
      expect(result.check_results.every((c) => c.passed)).toBe(true)
      for (const step of result.trajectory.filter((s) => s.action.type !== 'message')) {
        expect(step.screenshot, `${result.id} step ${step.index}`).toMatch(/\.png$/)
        expect(existsSync(join(run.runDir!, step.screenshot!))).toBe(true)
      }
      expect(existsSync(join(run.runDir!, result.result!.screenshot!))).toBe(true)
      expect(result.final_state, result.id).toBe(`${result.id}/finish.json`)
    }
    expect(run.summary?.totals).toMatchObject({ total: ids.length, passed: ids.length, success_rate: 1 })
    expect(run.summary?.by_suite.omnizon?.passed).toBe(ids.length)
  })

  test('eight tasks at once do not interfere, and a second run gives byte-identical /finish diffs', async () => {
    expect(oracle, 'needs the first oracle run').not.toBeNull()
    const second = await runBenchmark(['tasks/omnizon', '--maxWorkers=8'], { AGENTEST_AGENT: 'oracle' })
    expect(second.code, second.stderr).toBe(0)
    expect(second.results.every((r) => r.status === 'passed')).toBe(true)
    for (const result of oracle!.results) {
      const again = second.results.find((r) => r.id === result.id)!
      const before = finishOf(oracle!, result) as { diff: unknown; final: unknown }
      const after = finishOf(second, again) as { diff: unknown; final: unknown }
      expect(JSON.stringify(after.diff), `${result.id}: /finish diff`).toBe(JSON.stringify(before.diff))
      expect(JSON.stringify(after.final), `${result.id}: final state`).toBe(JSON.stringify(before.final))
    }
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

  test('every near miss fails its task, and at least ten tasks carry one', async () => {
    const run = await runBenchmark(['tasks/omnizon'], { AGENTEST_AGENT: 'near-miss' })
    expect(run.code).toBe(1)
    for (const result of run.results) {
      expect(result.variant, result.id).not.toBeNull()
      // A near miss must be caught by the checks: failed, not errored or passed.
      expect(result.status, `${result.id} [${result.variant}]: ${result.error?.message}`).toBe('failed')
      expect(result.agent_status).toBe('done')
    }
    expect(new Set(run.results.map((r) => r.id)).size).toBeGreaterThanOrEqual(10)
  })

  test("-t 'omnizon-2\\b' runs exactly that task", async () => {
    const run = await runBenchmark(['tasks/omnizon', '-t', 'omnizon-2\\b'], { AGENTEST_AGENT: 'oracle' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.results.map((r) => r.id)).toEqual(['omnizon-2'])
  })
})
