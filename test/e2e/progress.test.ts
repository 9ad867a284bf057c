import { describe, expect, test } from 'vitest'
import { runBenchmark } from './run-benchmark.ts'

/** A long run shows, for each task still running, its step out of max_steps and its last action. */
describe('live progress', { timeout: 120_000 }, () => {
  test('running tasks print their step and last action as they go', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-9.task.ts'], { AGENTEST_PROGRESS_MS: '300' })
    expect(run.code, run.stdout.slice(-2000)).toBe(0)
    const lines = run.stdout.split('\n').filter((line) => line.startsWith('agentest ▸ omnizon-9'))
    expect(lines.length).toBeGreaterThan(1)
    expect(lines.some((line) => /step [1-9]\d*\/30 {2}(click|type|press|scroll|goto)/.test(line)), lines.join('\n')).toBe(true)
    const silent = await runBenchmark(['tasks/omnizon/omnizon-9.task.ts'], { AGENTEST_PROGRESS_MS: '0' })
    expect(silent.stdout).not.toContain('agentest ▸')
  })
})
