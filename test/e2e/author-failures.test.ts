import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import { runBenchmark, type BenchmarkRun } from './run-benchmark.ts'

/**
 * What a task author sees when a task fails (issue #18): a check's name once, both values in
 * full, a reference solution's error at its own line, and no terminal colours in the record.
 * Colours are forced on, as in a terminal, where Playwright colours its call logs.
 */
const SOLUTION = 'test/data/author-tasks/throwing-solution.task.ts'

describe('readable failures', { timeout: 120_000 }, () => {
  let run: BenchmarkRun
  const result = (id: string) => run.results.find((r) => r.id === id)!

  test('two fixture tasks: failing checks, and a solution with a bad selector', async () => {
    run = await runBenchmark(['--config', 'test/data/fixture-tasks.vitest.config.ts'], {
      FIXTURE_TASKS: 'test/data/author-tasks/*.task.ts',
      FORCE_COLOR: '1',
      NO_COLOR: '',
    })
    expect(run.results.map((r) => [r.id, r.status]).sort(), run.stdout.slice(-3000)).toEqual([
      ['failing-checks', 'failed'],
      ['throwing-solution', 'error'],
    ])
  })

  test('a check is named once, with both values in full and a diff for objects', () => {
    const [statuses, answer] = result('failing-checks').check_results
    expect(statuses).toMatchObject({
      check: 'order statuses',
      message:
        "expected { 'OZ-1001': 'placed', 'OZ-1002': 'placed', 'OZ-1003': 'cancelled' } to deeply equal { 'OZ-1001': 'placed', 'OZ-1002': 'cancelled', 'OZ-1003': 'cancelled' }",
      diff: expect.stringContaining('-   "OZ-1002": "cancelled",\n+   "OZ-1002": "placed",'),
    })
    expect(answer).toMatchObject({
      check: 'the answer',
      expected: '"The home page shows laptops, coffee machines and a pair of headphones."',
      received: '"The home page shows laptops, coffee machines and headphones."',
    })
    expect(result('failing-checks').error).toEqual({ kind: 'check_failed', message: `order statuses: ${statuses!.message}` })
    const console = stripVTControlCharacters(run.stdout + run.stderr)
    expect(console).toContain(`✗ order statuses: ${statuses!.message}`)
    expect(console).not.toContain('order statuses: order statuses')
    expect(readFileSync(join(run.runDir!, 'report.html'), 'utf8')).toContain('<pre class="check-diff">')
  })

  test("a reference solution's error is its own, at its line in the task file", () => {
    expect(result('throwing-solution').error).toEqual({
      kind: 'reference_error',
      message: expect.stringMatching(new RegExp(`^the reference solution threw at ${SOLUTION}:11:\\d+: .*"button\\["`)),
    })
    // Vitest shows the error at its first frame in a project file: the solution's line, not run().
    const console = stripVTControlCharacters(run.stdout + run.stderr)
    const shown = console.slice(console.indexOf('AgentRunError: the reference solution threw'))
    expect(shown.split('\n').find((line) => line.includes(' ❯ '))).toMatch(new RegExp(`❯ solution ${SOLUTION}:11:\\d+`))
    expect(shown).toContain("11|     await ui.click('button[')")
  })

  test('no terminal escape codes in any record, nor spelled out', () => {
    const files = readdirSync(run.runDir!).filter((f) => f.endsWith('.json'))
    expect(files).toContain('throwing-solution.json')
    for (const file of files) expect(readFileSync(join(run.runDir!, file), 'utf8'), file).not.toMatch(/\u001b|\\u001b/)
    // The colours were there to strip: Playwright's call log is in the message, without them.
    expect(result('throwing-solution').error!.message).toMatch(/Call log:\n  - waiting for button\[.* to be visible/)
  })
})
