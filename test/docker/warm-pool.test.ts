import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureImage, imageDir, LABEL, removeRunContainers } from '../../src/docker/index.ts'
import { writeFileTo } from '../../src/docker/archive.ts'
import { DesktopSandbox, WARM_POOL_TASK } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { WarmPool } from '../../src/sandbox/desktop/warm-pool.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'

const RUN = `warm-pool-test-${process.pid}`

/** The pool's own containers: no task has taken them (a taken one is renamed for its task). */
async function poolContainers(): Promise<string[]> {
  const found = await docker.listContainers({ all: true, filters: { label: [`${LABEL.run}=${RUN}`, `${LABEL.task}=${WARM_POOL_TASK}`] } })
  return found.flatMap((c) => c.Names).filter((name) => /^\/agentest-pool-[0-9a-f]{8}$/.test(name))
}

describe.skipIf(noDocker)('the warm pool of desktop containers', { timeout: 120_000 }, () => {
  let image = ''

  beforeAll(async () => {
    image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
  }, 300_000)

  afterAll(async () => {
    await removeRunContainers(docker, RUN)
  })

  test('a pooled sandbox is a fresh container that never ran a task, renamed for its task and set up', async () => {
    const pool = new WarmPool({ docker, runId: RUN, size: 1 })
    try {
      const open = (taskId: string) => pool.open({ docker, image, runId: RUN, taskId, setupCmd: `echo ${taskId} > ~/mine.txt; ls ~ > ~/home.txt`, network: false })
      const first = await open('first-task')
      await first.shell('echo left over > /home/agent/left.txt', 10_000, 'agent')
      await first.close()
      await pool.filled(image)
      const second = await open('second-task')
      expect(second.timings.adopt, 'it came from the pool').toBeTypeOf('number')
      expect(second.container.id).not.toBe(first.container.id)
      expect(second.name).toMatch(/^agentest-second-task-[0-9a-f]{8}$/)
      expect((await second.container.inspect()).Name).toBe(`/${second.name}`)
      // What the task before wrote is not there; its own setup ran, in a home it found untouched.
      const home = await second.shell('cat /home/agent/mine.txt; cat /home/agent/home.txt; test -e /home/agent/left.txt && echo LEFT; true')
      expect(home.stdout.toString()).toBe('second-task\nDesktop\nDocuments\nhome.txt\nmine.txt\n')
      await second.close()
    } finally {
      await pool.close()
    }
  })

  test("after close, none of the pool's containers is left, started or still starting", async () => {
    const pool = new WarmPool({ docker, runId: RUN, size: 2 })
    await pool.filled(image)
    expect(await poolContainers()).toHaveLength(2)
    // One more is starting (the pool refills after a take) while it closes.
    const taken = await pool.open({ docker, image, runId: RUN, taskId: 'taken', setupCmd: null, network: false })
    await pool.close()
    expect(await poolContainers()).toEqual([])
    // A task's container is the task's to remove, not the pool's.
    expect(await taken.isRunning()).toBe(true)
    await taken.close()
    // A closed pool hands out fresh containers.
    const fresh = await pool.open({ docker, image, runId: RUN, taskId: 'after-close', setupCmd: null, network: false })
    expect(fresh.timings.adopt).toBeUndefined()
    await fresh.close()
  })

  test('ready means the window manager manages the screen; an X server that cannot start ends the container with why', async () => {
    const desktop = await DesktopSandbox.open({ docker, image, runId: RUN, taskId: 'ready-signal', setupCmd: null, network: false })
    try {
      // openbox announces itself on the root window once it manages the screen, before its --startup signal.
      const probe = await desktop.shell('test -e /tmp/openbox-ready && xprop -root _NET_SUPPORTING_WM_CHECK')
      expect(probe.stdout.toString()).toMatch(/window id # 0x[0-9a-f]+/)
    } finally {
      await desktop.close()
    }
    // An X server that cannot start (here: its log is root's, so the agent cannot write it): the
    // entrypoint ends at once, saying so, rather than leaving a desktop that never gets ready.
    const container = await docker.createContainer({ Image: image, Labels: { [LABEL.managed]: 'true', [LABEL.run]: RUN }, HostConfig: { NetworkMode: 'none', Init: true } })
    await writeFileTo(container, '/tmp/xvfb.log', '', { uid: 0, gid: 0 })
    await container.start()
    const { StatusCode } = await container.wait()
    const logs = (await container.logs({ stdout: true, stderr: true })).toString()
    await container.remove({ force: true })
    expect(StatusCode).toBe(1)
    expect(logs).toContain('agentest-desktop: Xvfb exited before its display was up')
  })
})
