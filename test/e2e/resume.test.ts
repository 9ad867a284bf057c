import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { noDocker } from '../docker/docker-available.ts'
import { runContainers } from '../docker/run-containers.ts'
import { runBenchmark } from './run-benchmark.ts'

/**
 * An interrupted run is finished by running the same command again: the tasks that completed
 * are reused, only the missing ones run, the summary covers all of them, and no container of
 * either run is left. A half-written result is ignored with a warning and its task runs again.
 */
const TASKS = [
  ...[1, 2, 4, 5, 7, 8].map((id) => `tasks/omnizon/omnizon-${id}.task.ts`),
  'tasks/desktop/terminal-hello.task.ts',
  'tasks/desktop/editor-note.task.ts',
]
const IDS = ['desktop-editor-note', 'desktop-terminal-hello', 'omnizon-1', 'omnizon-2', 'omnizon-4', 'omnizon-5', 'omnizon-7', 'omnizon-8']

function recordsIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'summary.json')
  } catch {
    return []
  }
}

describe.skipIf(noDocker)('resuming an interrupted run', { timeout: 600_000 }, () => {
  test('Ctrl-C halfway, then the same command: only the missing tasks run and nothing leaks', async () => {
    const results = mkdtempSync(join(tmpdir(), 'agentest-resume-'))
    const command = [...TASKS, '--maxWorkers=2']
    let interruptedRun = ''
    let interruptedPid = 0
    let done: string[] = []
    const interrupted = await runBenchmark(
      command,
      {},
      async (resultsDir, pid) => {
        interruptedPid = pid
        for (let waited = 0; done.length < 3 && waited < 240_000; waited += 200) {
          await sleep(200)
          interruptedRun = readdirSync(resultsDir)[0] ?? ''
          done = interruptedRun ? recordsIn(join(resultsDir, interruptedRun)) : []
        }
        process.kill(pid, 'SIGINT')
      },
      { resultsDir: results },
    )
    expect(interrupted.code).not.toBe(0)
    // Tasks cut off by the interrupt are on record as errors: those run again too.
    const statusOf = (id: string) => JSON.parse(readFileSync(join(results, interruptedRun, `${id}.json`), 'utf8')).status as string
    const completed = recordsIn(join(results, interruptedRun))
      .map((f) => f.replace(/\.json$/, ''))
      .filter((id) => statusOf(id) === 'passed')
      .sort()
    expect(completed.length).toBeGreaterThanOrEqual(3)
    expect(completed.length).toBeLessThan(IDS.length)

    // A result cut off mid-write: ignored with a warning, and its task runs again.
    const [torn, ...kept] = completed
    const tornFile = join(results, interruptedRun, `${torn}.json`)
    writeFileSync(tornFile, readFileSync(tornFile, 'utf8').slice(0, 200))

    const resumed = await runBenchmark(command, {}, undefined, { resultsDir: results })
    expect(resumed.code, resumed.stdout.slice(-3000)).toBe(0)
    expect(`${resumed.stdout}${resumed.stderr}`).toContain(`ignoring ${tornFile}: not readable JSON`)
    const byId = Object.fromEntries(resumed.results.map((r) => [r.id, r]))
    expect(Object.keys(byId).sort()).toEqual(IDS)
    for (const id of IDS) {
      const reused = kept.includes(id)
      expect(byId[id], id).toMatchObject({ status: 'passed', cached: reused, cached_from: reused ? interruptedRun : null })
    }
    expect(resumed.summary?.totals).toMatchObject({ total: IDS.length, passed: IDS.length, cached: kept.length })

    // The interrupted run's reaper sweeps once its main process is gone.
    const leftovers = async () => [...(await runContainers(interruptedRun, interruptedPid)), ...(await runContainers(resumed.results[0]!.run_id, resumed.pid))]
    let left = await leftovers()
    for (let waited = 0; left.length > 0 && waited < 25_000; waited += 500) {
      await sleep(500)
      left = await leftovers()
    }
    expect(left).toEqual([])
  })
})
