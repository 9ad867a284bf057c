import { describe, expect, test } from 'vitest'
import { Config, ResolvedRun } from '../../src/schema/config.ts'
import { WorkerHarness } from '../../src/task/worker.ts'
import { TaskAbortedError } from '../../src/trajectory/recording-computer.ts'

const run = ResolvedRun.parse({ config: Config.parse({}), run_id: 'starts', root: '/tmp', results_path: '/tmp/starts', config_file: null, agent_modules: {} })
const harness = () => new WorkerHarness(run, null, 'worker', { available: false, reason: 'not needed here' }, {})

/** A start that stays in flight until released. */
function pendingStart(log: { running: number; most: number }) {
  let release!: () => void
  const done = new Promise<void>((resolve) => (release = resolve))
  const open = async () => {
    log.running++
    log.most = Math.max(log.most, log.running)
    await done
    log.running--
    return 'sandbox'
  }
  return { open, release }
}

describe("a worker's sandbox starts", () => {
  test('at most three are in flight at once; the rest wait their turn and all start', async () => {
    const worker = harness()
    const log = { running: 0, most: 0 }
    const starts = Array.from({ length: 8 }, () => pendingStart(log))
    const opened = starts.map((s) => worker.startSandbox(s.open, new AbortController().signal))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(log.running).toBe(3)
    for (const s of starts) s.release()
    expect(await Promise.all(opened)).toEqual(Array(8).fill('sandbox'))
    expect(log.most).toBe(3)
  })

  test('a task stopped while it waits never starts its sandbox, and says why', async () => {
    const worker = harness()
    const log = { running: 0, most: 0 }
    const busy = Array.from({ length: 3 }, () => pendingStart(log))
    const running = busy.map((s) => worker.startSandbox(s.open, new AbortController().signal))
    const stop = new AbortController()
    let started = false
    const waiting = worker.startSandbox(async () => (started = true), stop.signal)
    stop.abort(new Error('the run was interrupted (SIGINT)'))
    for (const s of busy) s.release()
    await expect(waiting).rejects.toBeInstanceOf(TaskAbortedError)
    await expect(waiting).rejects.toThrow(/interrupted/)
    expect(started).toBe(false)
    await Promise.all(running)
  })
})
