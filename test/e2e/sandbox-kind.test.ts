import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runBenchmark } from './run-benchmark.ts'

/**
 * A kind of sandbox added from outside the core (test/data/sandbox-kind: the kind and one task
 * file, no edit of src/): its task runs end to end under the oracle, fails under nop and under
 * its near miss, and its record holds its steps, screenshots and evidence like any other.
 */
const NOTES = ['--config', 'test/data/fixture-tasks.vitest.config.ts']
const env = (agent: string) => ({ FIXTURE_TASKS: 'test/data/sandbox-kind/*.task.ts', AGENTEST_AGENT: agent })

describe('a sandbox kind registered from a test folder', { timeout: 300_000 }, () => {
  test('the oracle passes its task; the record has the steps, their screens and the kind\'s evidence', async () => {
    const run = await runBenchmark(NOTES, env('oracle'), undefined, { grader: false })
    expect(run.code, run.stdout.slice(-3000) + run.stderr.slice(-2000)).toBe(0)
    const [record] = run.results
    expect(run.results).toHaveLength(1)
    expect(record).toMatchObject({ id: 'shopping-list', status: 'passed', agent_status: 'done', app: null, desktop_image: null })
    // Three items typed and three Enters: six steps, each with the pad's screen as a PNG.
    expect(record!.trajectory.map((step) => step.action.type)).toEqual(['type', 'keypress', 'type', 'keypress', 'type', 'keypress'])
    const shot = readFileSync(join(run.runDir!, record!.trajectory[0]!.screenshot!))
    expect(shot.subarray(1, 4).toString()).toBe('PNG')
    expect(JSON.parse(readFileSync(join(run.runDir!, record!.final_state!), 'utf8'))).toEqual({ title: 'Groceries', text: 'milk\neggs\nbread\n' })
    expect(record!.check_results.map((check) => check.passed)).toEqual([true, true])
  })

  test('nop and the near miss fail it', async () => {
    const nop = await runBenchmark(NOTES, env('nop'), undefined, { grader: false })
    expect(nop.results.map((r) => r.status)).toEqual(['failed'])
    const nearMiss = await runBenchmark(NOTES, env('near-miss'), undefined, { grader: false })
    expect(nearMiss.results.map((r) => [r.variant, r.status])).toEqual([['bread missing', 'failed']])
  })
})
