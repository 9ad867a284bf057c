import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { repeatFreeRuns } from '../../src/computer/xdotool.ts'
import { ensureImage, imageDir, removeRunContainers } from '../../src/docker/index.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { launch, launchApp } from '../../src/desktop-helpers/index.ts'
import { docker, noDocker } from './docker-available.ts'

const RUN = `typing-test-${process.pid}`
/** Repeated digits, next to each other and with keys between: what galculator used to drop. */
const DIGITS = '7006652'

test('a line is cut into runs in which no character comes twice', () => {
  expect(repeatFreeRuns('7006652')).toEqual(['70', '06', '652'])
  expect(repeatFreeRuns('121')).toEqual(['12', '1'])
  expect(repeatFreeRuns('0.005')).toEqual(['0.', '0', '05'])
  expect(repeatFreeRuns('abc')).toEqual(['abc'])
  expect(repeatFreeRuns('')).toEqual([])
})

/** Keys land as typed: the Computer's type() read back from each bundled app's own state. */
describe.skipIf(noDocker)('typing into the bundled desktop apps', { timeout: 300_000 }, () => {
  let image = ''
  const open = async (taskId: string, setupCmd: string) => DesktopSandbox.open({ docker, image, runId: RUN, taskId, setupCmd, network: false })

  beforeAll(async () => {
    image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
  }, 300_000)

  afterAll(async () => {
    await removeRunContainers(docker, RUN)
  })

  test('the calculator shows exactly the digits typed, repeated ones included', async () => {
    const sandbox = await open('typing-calculator', launchApp('galculator'))
    await sandbox.computer.type(`${DIGITS}+121=`)
    await sandbox.computer.keypress(['ctrl', 'q'])
    const settings = async () => (await sandbox.shell("grep '^remembered_valuex=' /home/agent/.config/galculator/galculator.conf; exit 0")).stdout.toString().trim()
    await expect.poll(settings, { timeout: 10_000, interval: 250 }).toBe(`remembered_valuex="${Number(DIGITS) + 121}"`)
    await sandbox.close()
  })

  test('the editor and the terminal get the same keys, at full speed', async () => {
    const editor = await open('typing-editor', `touch ~/typed.txt\n${launch('mousepad ~/typed.txt', 'typed.txt')}`)
    await editor.computer.type(`${DIGITS} 1000 0.005\nsee  the  bookkeeper`)
    await editor.computer.keypress(['ctrl', 's'])
    const saved = async () => (await editor.readFile('/home/agent/typed.txt')).toString()
    await expect.poll(saved, { timeout: 10_000, interval: 200 }).toBe(`${DIGITS} 1000 0.005\nsee  the  bookkeeper`)
    await editor.close()

    const terminal = await open('typing-terminal', launch('xterm', '^agent@'))
    await terminal.computer.type(`echo ${DIGITS} 1000 0.005 > /tmp/typed\n`)
    const typed = async () => (await terminal.shell('cat /tmp/typed 2>/dev/null; exit 0')).stdout.toString().trim()
    await expect.poll(typed, { timeout: 10_000, interval: 200 }).toBe(`${DIGITS} 1000 0.005`)
    await terminal.close()
  })
})
