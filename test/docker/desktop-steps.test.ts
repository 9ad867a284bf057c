import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { SolutionContext } from '../../src/task/spec.ts'
import { ensureImage, imageDir, removeRunContainers } from '../../src/docker/index.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { activeTitle, launch, takeInto } from '../../src/desktop-helpers/index.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'

const RUN = `desktop-steps-${process.pid}`

/**
 * The desktop tasks' reference steps on a busy machine: an app that misses keys typed while it
 * is still busy must not lose the oracle its task (the CI gate once lost two near misses so).
 */
describe.skipIf(noDocker)('desktop reference steps in real apps', { timeout: 180_000 }, () => {
  let sandbox: DesktopSandbox
  let context: SolutionContext

  beforeAll(async () => {
    const image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
    const setupCmd = ['mkdir -p ~/Desktop', "printf 'hi\\n' > ~/Desktop/a.txt", launch('pcmanfm ~/Desktop', '^Desktop$')].join('\n')
    sandbox = await DesktopSandbox.open({ docker, image, runId: RUN, taskId: 'desktop-steps', setupCmd, network: false })
    // The steps read only the computer and the container.
    context = { computer: sandbox.computer, desktop: sandbox } as unknown as SolutionContext
  }, 300_000)

  afterAll(async () => {
    await removeRunContainers(docker, RUN)
  })

  test('takeInto picks the item again when the folder view had not caught up with a new folder', async () => {
    // The folder appears only after the first try has typed its name: that try finds nothing to
    // open, as a folder view still loading does, and the window stays on the Desktop.
    const late = sandbox.shell('sleep 4; mkdir ~/Desktop/late', 10_000, 'agent')
    await takeInto(context, 'a.txt', 'late', /^late$/)
    await late
    expect(await activeTitle(sandbox)).toBe('late')
    await sandbox.computer.keypress(['ctrl', 'v'])
    const moved = await sandbox.shell('sleep 1; ls ~/Desktop ~/Desktop/late', 10_000, 'agent')
    expect(moved.stdout.toString()).toBe('/home/agent/Desktop:\nlate\n\n/home/agent/Desktop/late:\na.txt\n')
  })
})
