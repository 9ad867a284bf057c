import { describe, expect, test } from 'vitest'
import { runScript } from '../grader/run-script.ts'

describe('npm run perf -- suite', { timeout: 180_000 }, () => {
  test('runs the tasks with each worker count, then reused, and prints one row per run', async () => {
    const run = await runScript('perf.ts', ['suite', 'tasks/omnizon', '-t', 'omnizon-(1|2)\\b', '--workers', '1,2'], { AGENTEST_AGENT: 'oracle' })
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^config +wall +tasks +passed +cached +task mean +task p90 +steps +steps\/s$/)
    const cells = lines.slice(1).map((line) => line.split(/ {2,}/))
    expect(cells.map((row) => row[0])).toEqual(['1 worker', '2 workers', '2 workers, reused'])
    // tasks, passed, cached: both tasks pass afresh each time, and the reused run takes both from the cache.
    expect(cells.map((row) => row.slice(2, 5))).toEqual([
      ['2', '2', '0'],
      ['2', '2', '0'],
      ['2', '2', '2'],
    ])
    expect(Number(cells[0]![7])).toBeGreaterThan(0)
    expect(cells[2]![7]).toBe('0')
  })

  test('a bad worker count is one line', async () => {
    const run = await runScript('perf.ts', ['suite', '--workers', '2,x'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('perf: --workers: positive integers separated by commas: 2,x\n')
  })
})

describe('npm run perf: arguments', () => {
  test('an unknown comparison or a bad round count is one line and exit 2', async () => {
    const unknown = await runScript('perf.ts', ['--only', 'p1,p9'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr.split('\n')[0]).toMatch(/^perf: --only: /)
    const rounds = await runScript('perf.ts', ['--rounds', '0'])
    expect(rounds.code).toBe(2)
    expect(rounds.stderr.split('\n')[0]).toMatch(/^perf: --rounds: /)
    const stray = await runScript('perf.ts', ['tasks/omnizon'])
    expect(stray.code).toBe(2)
    expect(stray.stderr.split('\n')[0]).toBe('perf: unexpected tasks/omnizon (task folders go after "suite")')
  })
})
