import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureImage, imageDir, removeRunContainers } from '../../src/docker/index.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { expectCalculatorShows, untilWindow, type DesktopCheckContext } from '../../src/desktop-helpers/index.ts'
import { recordedChecks } from '../desktop-helpers/fake-desktop.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'

const RUN = `calculator-check-${process.pid}`
const FOLDER = '/home/agent/.config/galculator'

/**
 * galculator started the way a newcomer might (no `launchApp`, so no settings folder) and waited
 * for by hand: without the folder it would save nothing as it quits, and the check would read
 * nothing while the screen shows the right number.
 */
const BARE_SETUP = [
  'galculator >/dev/null 2>&1 &',
  "for i in $(seq 400); do xdotool getactivewindow getwindowname 2>/dev/null | grep -q '^galculator$' && break; sleep 0.05; done",
].join('\n')

/** The check's context as a task's body has it: the recording expect, the observer, the check's shell. */
function checking(sandbox: DesktopSandbox) {
  const { expect: check, checks } = recordedChecks()
  const context: DesktopCheckContext = {
    expect: check,
    observed: sandbox.observer,
    shell: async (command, options) => {
      const { timeoutMs, as } = typeof options === 'number' ? { timeoutMs: options, as: undefined } : (options ?? {})
      const result = await sandbox.shell(command, timeoutMs, as)
      return { stdout: result.stdout.toString(), stderr: result.stderr.toString(), exitCode: result.exitCode }
    },
  }
  return { context, checks }
}

describe.skipIf(noDocker)('expectCalculatorShows in a real desktop, with no settings folder made by the setup', { timeout: 300_000 }, () => {
  let image = ''
  /** A container with galculator up and no settings folder, its turn started (the observer tracing). */
  const open = async (taskId: string) => {
    const sandbox = await DesktopSandbox.open({ docker, image, runId: RUN, taskId, setupCmd: BARE_SETUP, network: false })
    expect((await sandbox.shell(`test -d ${FOLDER}`, 10_000, 'agent')).exitCode, 'no settings folder before the turn').not.toBe(0)
    await sandbox.observer.start()
    return sandbox
  }

  beforeAll(async () => {
    image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
  }, 300_000)

  afterAll(async () => {
    await removeRunContainers(docker, RUN)
  })

  test('the calculator left open: the check makes the folder, closes it, and reads the number it shows', async () => {
    const sandbox = await open('calculator-open')
    await sandbox.computer.type('7006652\n')
    await sandbox.observer.endTurn()
    const { context, checks } = checking(sandbox)
    await expectCalculatorShows(context, 7006652)
    expect(checks).toMatchObject([{ check: 'the calculator was used: it shows 7006652 (or is in paper mode)', passed: true }])
    // A wrong expectation on the same evidence fails, saying what the display showed and where that was read.
    await expectCalculatorShows(context, 42)
    expect(checks[1]).toMatchObject({ passed: false })
    expect(checks[1]!.message).toBe(
      "the calculator's display (read from galculator's settings, ~/.config/galculator/galculator.conf, saved as it was closed before the check) shows 7006652, expected 42 or paper mode",
    )
    await sandbox.close()
  })

  test('the calculator closed during the turn with no folder: the check fails, and says how to launch it', async () => {
    const sandbox = await open('calculator-closed')
    await untilWindow(sandbox, /^galculator$/)
    await sandbox.computer.type('17520\n')
    await sandbox.computer.keypress(['ctrl', 'q'])
    await expect.poll(async () => (await sandbox.shell('pgrep -x galculator', 10_000)).exitCode, { timeout: 10_000 }).not.toBe(0)
    await sandbox.observer.endTurn()
    const { context, checks } = checking(sandbox)
    await expectCalculatorShows(context, 17520)
    expect(checks[0]).toMatchObject({ passed: false })
    expect(checks[0]!.message).toContain("galculator was closed while ~/.config/galculator did not exist, so it saved nothing (launch it with launchApp('galculator')")
    await sandbox.close()
  })
})
