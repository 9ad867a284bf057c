import { basename } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { descendantsOf, isAlive, processesMatching, type ProcessInfo } from '../support/processes.ts'
import { runBenchmark } from './run-benchmark.ts'

/** What a run's main process had running below it, sampled until it ended (by `sampleTree`). */
let sampled: Array<ProcessInfo & { depth: number }> = []
/**
 * A browser Playwright launched: Chromium's own binary, driven over --remote-debugging-pipe. Not
 * Debian's /usr/bin/chromium, a shell script that execs it (its subshells show the same command),
 * and not a helper (they have a --type; one between fork and exec still shows the browser's command).
 */
const isBrowser = (command: string) =>
  /chrom|headless_shell/.test(basename(command.split(' ')[0] ?? '')) && command.includes('--remote-debugging-pipe') && !command.includes('--type=')
/** Browsers that many levels below the main process (a browser's fork before its exec is no browser of its own). */
const browsersAt = (depth: number) =>
  sampled.filter((p) => p.depth === depth && isBrowser(p.command) && !sampled.some((q) => q.pid === p.parent && isBrowser(q.command)))

async function sampleTree(_results: string, pid: number): Promise<void> {
  // Each process as last seen: Debian's chromium is a shell script that execs the browser, and a
  // process between its fork and its exec still shows its parent's command (or none).
  const seen = new Map<number, ProcessInfo & { depth: number }>()
  sampled = []
  while (isAlive(pid)) {
    for (const child of descendantsOf(pid)) if (child.command) seen.set(child.pid, child)
    sampled = [...seen.values()]
    await sleep(100)
  }
}

/**
 * Which processes a browser run starts, and where: small Omnizon runs beside the other files
 * (each samples only its own run's process tree), not in the Omnizon gate, which runs alone.
 */
describe('the processes of a browser run', { timeout: 300_000 }, () => {
  test("-t 'omnizon-2\\b' runs exactly that task, and starts only what it needs", async () => {
    const name = `omnizon-one-${process.pid}`
    const run = await runBenchmark(['tasks/omnizon', '-t', 'omnizon-2\\b'], { AGENTEST_AGENT: 'oracle', AGENTEST_RUN_NAME: name }, sampleTree)
    expect(run.code, run.stderr).toBe(0)
    expect(run.results.map((r) => r.id)).toEqual(['omnizon-2'])
    // The worker launched its own browser; the run started no inbox app, docs site or reaper.
    expect(browsersAt(2)).toHaveLength(1)
    expect(browsersAt(1)).toEqual([])
    expect(sampled.filter((p) => /inbox|static-docs|container-reaper/.test(p.command))).toEqual([])
    expect(processesMatching(`container-reaper.mjs ${name}`)).toEqual([])
  })

  test('a worker keeps one browser for all its task files', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts', 'tasks/omnizon/omnizon-2.task.ts', 'tasks/omnizon/omnizon-3.task.ts', '--maxWorkers=1'], { AGENTEST_AGENT: 'oracle' }, sampleTree)
    expect(run.code, run.stderr).toBe(0)
    expect(run.results.map((r) => r.status)).toEqual(['passed', 'passed', 'passed'])
    // Each file has a harness of its own; a browser each cost a Chromium start and stayed open.
    expect(browsersAt(2)).toHaveLength(1)
  })

  test('browser.scope run: one browser server in the main process, every worker connected to it', async () => {
    const run = await runBenchmark(['tasks/omnizon/omnizon-1.task.ts', 'tasks/omnizon/omnizon-2.task.ts'], { AGENTEST_AGENT: 'oracle', AGENTEST_BROWSER_SCOPE: 'run' }, sampleTree)
    expect(run.code, run.stderr).toBe(0)
    expect(run.results.map((r) => r.status)).toEqual(['passed', 'passed'])
    expect(browsersAt(1)).toHaveLength(1)
    expect(browsersAt(2)).toEqual([])
  })
})
