import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { BrowserServer } from 'playwright'
import { chromiumArgs, findBrowser, playwrightChromium } from '../../src/sandbox/browser/find-browser.ts'
import { descendantsOf } from '../support/processes.ts'
import { runBenchmark, type BenchmarkRun } from './run-benchmark.ts'

/**
 * browser.connect: every task's context opened in a browser started elsewhere (here in this test's
 * process tree, not the run's): a Playwright browser server, and a Chromium's CDP endpoint. The
 * run launches no browser of its own, the tasks pass, and the clone's /finish is still refused.
 */
const CONFIG = 'test/data/browser-connect.config.yaml'
const TASKS = ['tasks/omnizon/omnizon-1.task.ts', 'tasks/omnizon/omnizon-2.task.ts']

let server: BrowserServer | null = null
let cdp: { process: ChildProcess; url: string } | null = null

/** Runs the tasks against `endpoint`, noting whether the run (or any of its workers) started a browser. */
async function runAgainst(endpoint: string, tasks: string[], agent: string): Promise<BenchmarkRun & { launched: string[] }> {
  const launched = new Set<string>()
  const run = await runBenchmark(tasks, { AGENTEST_CONFIG: CONFIG, AGENTEST_AGENT: agent, AGENTEST_BROWSER_CONNECT: endpoint }, async (_, pid) => {
    // Sampled while it runs: no chromium below the run's process.
    for (let look = 0; look < 40; look++) {
      for (const p of descendantsOf(pid)) if (/chrom/i.test(p.command)) launched.add(p.command.slice(0, 80))
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }, { grader: false })
  return { ...run, launched: [...launched] }
}

describe('tasks in a browser elsewhere (browser.connect)', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    const { executablePath } = findBrowser(null, true)
    server = await playwrightChromium().launchServer({ executablePath, args: chromiumArgs() })
    // A Chromium with its DevTools port open, as a browser farm's would be.
    const profile = mkdtempSync(join(tmpdir(), 'agentest-cdp-browser-'))
    const child = spawn(executablePath!, [...chromiumArgs(), '--headless=new', '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] })
    const url = await new Promise<string>((resolve, reject) => {
      let said = ''
      child.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString()
        const port = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(said)?.[1]
        if (port) resolve(`http://127.0.0.1:${port}`)
      })
      child.once('exit', () => reject(new Error(`chromium exited: ${said.slice(-500)}`)))
    })
    cdp = { process: child, url }
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    cdp?.process.kill('SIGKILL')
  })

  test('a Playwright browser server: the tasks pass under the oracle, and the run starts no browser of its own', async () => {
    const run = await runAgainst(server!.wsEndpoint(), TASKS, 'oracle')
    expect(run.results.map((r) => [r.id, r.status]).sort(), run.stdout.slice(-2000)).toEqual([
      ['omnizon-1', 'passed'],
      ['omnizon-2', 'passed'],
    ])
    expect(run.launched).toEqual([])
  })

  test('the egress proxy still stands between it and the clone: /finish is refused and the task ends as blocked_url', async () => {
    const run = await runAgainst(server!.wsEndpoint(), [TASKS[0]!], 'seek-finish')
    const [result] = run.results
    expect(result?.status, run.stdout.slice(-2000)).toBe('error')
    expect(result!.error?.kind).toBe('blocked_url')
    expect(result!.error?.message).toMatch(/\/finish$/)
  })

  test('a CDP endpoint (a browser farm\'s): the tasks pass', async () => {
    const run = await runAgainst(cdp!.url, TASKS, 'oracle')
    expect(run.results.map((r) => [r.id, r.status]).sort(), run.stdout.slice(-2000)).toEqual([
      ['omnizon-1', 'passed'],
      ['omnizon-2', 'passed'],
    ])
    expect(run.launched).toEqual([])
  })

  test('an endpoint nobody answers is said in one line naming browser.connect', async () => {
    const run = await runAgainst('ws://127.0.0.1:9/nobody', [TASKS[0]!], 'oracle')
    expect(run.results[0]?.status).not.toBe('passed')
    expect(`${run.stdout}${run.stderr}`).toContain('browser.connect: cannot reach the browser at ws://127.0.0.1:9/nobody')
  })
})
