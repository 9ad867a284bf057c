import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { TestCaseRun } from '../../src/schema/run.ts'
import { ROOT, runBenchmark, VITEST } from './run-benchmark.ts'

const COPY = 'test/data/generated/watch/sound-buy.task.ts'
const RIGHT = "solution: ({ shop }) => shop.buy(RIGHT),"
const WRONG = "solution: ({ shop }) => shop.buy({ ...RIGHT, product: 'p075' }),"

/** The author's loop: `npx vitest <task file>` re-runs the task on each save, afresh every time. */
describe('watch mode', { timeout: 240_000 }, () => {
  test('each save of a task file gives a fresh verdict, never an earlier result', async () => {
    const original = readFileSync(join(ROOT, 'test/data/validate-tasks/sound-buy.task.ts'), 'utf8').replaceAll('../../../src/', '../../../../src/')
    expect(original).toContain(RIGHT)
    mkdirSync(join(ROOT, dirname(COPY)), { recursive: true })
    writeFileSync(join(ROOT, COPY), original)
    const results = mkdtempSync(join(tmpdir(), 'agentest-watch-'))
    // An earlier `vitest run` of the same code left a passing result that a plain run would reuse.
    const earlier = await runBenchmark(['--config', 'test/data/fixture-tasks.vitest.config.ts'], { FIXTURE_TASKS: COPY, AGENTEST_AGENT: 'oracle' }, undefined, { resultsDir: results, grader: false })
    expect(earlier.results[0]).toMatchObject({ status: 'passed', cached: false })
    const before = new Set(readdirSync(results))
    const child = spawn(process.execPath, [VITEST, '--watch', '--project', 'benchmark', '--config', 'test/data/fixture-tasks.vitest.config.ts'], {
      cwd: ROOT,
      env: { ...process.env, CI: '', NO_COLOR: '1', FIXTURE_TASKS: COPY, AGENTEST_AGENT: 'oracle', AGENTEST_RESULTS_DIR: results, AGENTEST_CACHE: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    // Each run of the watcher ends with agentest's summary table.
    const summaries = () => output.split('agentest summary').length - 1
    const waitForSummary = async (n: number) => {
      for (let waited = 0; summaries() < n; waited += 200) {
        if (waited > 120_000) throw new Error(`no summary ${n} after 120 s:\n${output.slice(-3000)}`)
        await new Promise((done) => setTimeout(done, 200))
      }
    }
    const record = () => {
      const run = readdirSync(results).find((name) => !before.has(name))
      return TestCaseRun.parse(JSON.parse(readFileSync(join(results, run!, 'sound-buy.json'), 'utf8')))
    }
    try {
      await waitForSummary(1)
      expect(record()).toMatchObject({ status: 'passed', cached: false })
      // The author breaks the solution and saves: the re-run fails.
      writeFileSync(join(ROOT, COPY), original.replace(RIGHT, WRONG))
      await waitForSummary(2)
      expect(record()).toMatchObject({ status: 'failed', cached: false })
      // And fixes it again: the re-run passes afresh, although a passing result of this very code exists.
      writeFileSync(join(ROOT, COPY), original)
      await waitForSummary(3)
      expect(record()).toMatchObject({ status: 'passed', cached: false })
    } finally {
      child.kill('SIGTERM')
    }
  })
})
