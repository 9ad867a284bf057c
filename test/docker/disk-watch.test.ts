import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureImage, imageDir, removeRunContainers } from '../../src/docker/index.ts'
import { DEFAULT_DESKTOP_LIMITS, DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { DiskWatch } from '../../src/sandbox/desktop/disk-watch.ts'
import type { Fault } from '../../src/faults/kinds.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'

const RUN = `disk-watch-test-${process.pid}`
const LIMIT_MB = 64

describe.skipIf(noDocker)('a desktop container\'s disk limit', { timeout: 120_000 }, () => {
  let image = ''

  beforeAll(async () => {
    image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
  }, 900_000)

  afterAll(() => removeRunContainers(docker, RUN))

  test('normal writes are fine; no file outgrows the limit; past it in all, the container is stopped as disk_limit', async () => {
    const sandbox = await DesktopSandbox.open({ docker, image, runId: RUN, taskId: 'disk', setupCmd: null, network: false, limits: { ...DEFAULT_DESKTOP_LIMITS, diskMb: LIMIT_MB } })
    const write = async (command: string) => (await sandbox.exec(['bash', '-c', command])).stdout.toString().trim()

    // One file cannot pass the limit, whenever the watcher looks: the kernel stops its writer (SIGXFSZ, 128 + 25).
    expect(await write('head -c 100M /dev/zero > ~/big; echo $?; stat -c %s ~/big; rm ~/big').then((out) => out.split('\n'))).toEqual(['153', String(LIMIT_MB * 1024 * 1024)])

    // What a task writes: well under the limit, nothing happens.
    const watch = new DiskWatch(sandbox.container, sandbox.name, LIMIT_MB).start(100)
    expect(await write('head -c 20M /dev/zero > ~/normal; echo $?')).toBe('0')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await watch.check()).toBeNull()
    expect(await sandbox.isRunning()).toBe(true)

    // Files each under the limit, past it together: the watcher stops the container.
    await write('for i in 1 2 3; do head -c 20M /dev/zero > ~/more-$i; done').catch(() => '')
    let fault: Fault | null = null
    for (let tries = 0; tries < 50 && !fault; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      fault = await watch.check()
    }
    expect(fault?.kind).toBe('disk_limit')
    // 80 MB and what the desktop itself wrote (a few KB); it may have been stopped before the last file was whole.
    expect(fault?.message).toMatch(new RegExp(`^container ${sandbox.name} wrote (6[5-9]|[78]\\d) MB, past its disk limit of ${LIMIT_MB} MB \\(docker\\.disk_mb\\); it was stopped$`))
    expect(await sandbox.isRunning()).toBe(false)
    watch.stop()
    await sandbox.close()
  })
})
