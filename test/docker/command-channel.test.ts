import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CommandChannel } from '../../src/docker/command-channel.ts'
import { containerLabels, ensureImage, execIn, imageDir, removeRunContainers } from '../../src/docker/index.ts'
import { writeFileTo } from '../../src/docker/archive.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'
import { startEngineProxy } from './engine-proxy.ts'

const RUN = `channel-test-${process.pid}`
/** An exec's creation, as the engine sees it. */
const EXEC = /^POST (\/v[\d.]+)?\/containers\/[^/]+\/exec$/
const ENV = { HOME: '/root', PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }

describe.skipIf(noDocker)('the command channel into a container', { timeout: 120_000 }, () => {
  let image = ''
  let container: Awaited<ReturnType<typeof docker.createContainer>>
  let channel: CommandChannel

  beforeAll(async () => {
    image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
    container = await docker.createContainer({
      Image: image,
      Entrypoint: ['sleep', '600'],
      User: 'agent',
      Labels: containerLabels(RUN, 'channel'),
      HostConfig: { NetworkMode: 'none', CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], Init: true },
    })
    await container.start()
    channel = await CommandChannel.open(container, { user: 'root', env: ENV, workingDir: '/' })
  }, 300_000)

  afterAll(async () => {
    channel?.close()
    await removeRunContainers(docker, RUN)
  })

  test('passes every argument as it is: spaces, quotes, newlines, backslashes, $(...), empty ones', async () => {
    const args = ['two words', "it's \"quoted\"", "'", "''\n'", 'line\nbreak\n', '\n', 'back\\slash \\n \\', '$(id -un) `id` * $nl "$@"', '', 'ünï 🖥', ' ', '\ttab\r']
    const result = await channel.run(['printf', '<%s>', ...args])
    expect(result).toMatchObject({ exitCode: 0, timedOut: false })
    expect(result.stdout.toString()).toBe(args.map((arg) => `<${arg}>`).join(''))
  })

  test('returns stdout and stderr apart, byte for byte, and the exit code', async () => {
    const bytes = Buffer.alloc(300_000)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256
    await writeFileTo(container, '/tmp/blob.bin', bytes)
    const read = await channel.run(['cat', '/tmp/blob.bin'])
    expect(read.stdout.equals(bytes)).toBe(true)
    const failed = await channel.run(['sh', '-c', 'echo out; echo err >&2; exit 7'])
    expect([failed.stdout.toString(), failed.stderr.toString(), failed.exitCode]).toEqual(['out\n', 'err\n', 7])
  })

  test('commands sent together are answered in order, each with its own output', async () => {
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => channel.run(['echo', `n${i}`])))
    expect(results.map((r) => r.stdout.toString())).toEqual(Array.from({ length: 25 }, (_, i) => `n${i}\n`))
  })

  test('a command that reads stdin gets none, and cannot eat the next commands', async () => {
    const [reader, next] = await Promise.all([channel.run(['cat']), channel.run(['echo', 'after'])])
    expect(reader).toMatchObject({ exitCode: 0 })
    expect(reader.stdout.length).toBe(0)
    expect(next.stdout.toString()).toBe('after\n')
  })

  test('a quick command queued behind a slow one waits for it: its time limit starts when it runs', async () => {
    // The echo's limit and grace (1 s + 5 s) would have run out while the sleep ran.
    const [slow, quick] = await Promise.all([channel.run(['sleep', '7'], 10_000), channel.run(['echo', 'next'], 1_000)])
    expect(slow).toMatchObject({ exitCode: 0, timedOut: false })
    expect(quick.stdout.toString()).toBe('next\n')
    expect(channel.open).toBe(true)
  })

  test('a command past its timeout is killed in the container, and the channel goes on', async () => {
    const slow = await channel.run(['sleep', '30'], 1_000)
    expect(slow).toMatchObject({ exitCode: 124, timedOut: true })
    expect((await channel.run(['echo', 'still here'])).stdout.toString()).toBe('still here\n')
  })

  test("the agent's user cannot answer in the channel's place: its pipes are root's", async () => {
    // The channel's shell is the parent of the `timeout` each command runs under.
    const helper = (await channel.run(['sh', '-c', 'ps -o ppid= -p $PPID'])).stdout.toString().trim()
    expect(helper).toMatch(/^\d+$/)
    const forge = await execIn(container, ['sh', '-c', `printf '99 0 6 0\\nforged' > /proc/${helper}/fd/1`], { user: 'agent' })
    expect([forge.exitCode, forge.stderr.toString()]).toEqual([2, expect.stringMatching(/Permission denied/)])
    const eavesdrop = await execIn(container, ['head', '-c', '1', `/proc/${helper}/fd/0`], { user: 'agent' })
    expect([eavesdrop.exitCode, eavesdrop.stderr.toString()]).toEqual([1, expect.stringMatching(/Permission denied/)])
    expect((await channel.run(['echo', 'genuine'])).stdout.toString()).toBe('genuine\n')
  })

  test('when the container dies, waiting commands fail at once and the channel says it is closed', async () => {
    const other = await docker.createContainer({ Image: image, Entrypoint: ['sleep', '600'], User: 'agent', Labels: containerLabels(RUN, 'dies') })
    await other.start()
    const doomed = await CommandChannel.open(other, { user: 'root', env: ENV, workingDir: '/' })
    const waiting = expect(doomed.run(['sleep', '60'], 90_000)).rejects.toThrow(/command channel/)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await other.kill()
    await waiting
    expect(doomed.open).toBe(false)
    await expect(doomed.run(['true'])).rejects.toThrow(/command channel/)
  })

  test('a frozen container (paused) fails the command a few seconds past its timeout instead of hanging', async () => {
    const other = await docker.createContainer({ Image: image, Entrypoint: ['sleep', '600'], User: 'agent', Labels: containerLabels(RUN, 'frozen') })
    await other.start()
    const frozen = await CommandChannel.open(other, { user: 'root', env: ENV, workingDir: '/' })
    expect((await frozen.run(['echo', 'awake'])).stdout.toString()).toBe('awake\n')
    await other.pause()
    const started = performance.now()
    await expect(frozen.run(['true'], 1_000)).rejects.toThrow('the command channel did not answer within 6000 ms')
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(frozen.open).toBe(false)
    await other.unpause()
  })
})

describe.skipIf(noDocker)("a desktop's steps through the channel", { timeout: 300_000 }, () => {
  test('ten actions, their screenshots and a check cost one exec, not twenty-one, and a channel that ends falls back to exec', async () => {
    const engine = await startEngineProxy()
    const Docker = (await import('dockerode')).default
    const remote = new Docker({ host: '127.0.0.1', port: Number(new URL(engine.dockerHost).port) })
    const image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
    const sandbox = await DesktopSandbox.open({ docker: remote, image, runId: RUN, taskId: 'channel-steps', setupCmd: null, network: false })
    try {
      const execsBefore = engine.requests.filter((line) => EXEC.test(line)).length
      const shots: Buffer[] = []
      for (let i = 0; i < 10; i++) {
        await sandbox.computer.move(100 + i * 10, 200)
        shots.push(await sandbox.computer.screenshot())
      }
      expect(await sandbox.computer.cursorPosition()).toEqual({ x: 190, y: 200 })
      const execs = engine.requests.filter((line) => EXEC.test(line)).length - execsBefore
      expect(execs).toBe(1)
      // Each a PNG of the whole 1280x800 screen (its IHDR chunk says so).
      expect(shots.map((png) => [png.subarray(1, 4).toString(), png.readUInt32BE(16), png.readUInt32BE(20)])).toEqual(Array(10).fill(['PNG', 1280, 800]))
      // The channel's shell is root's; the X clients it starts draw on the agent's display all the
      // same. A check goes through it too: still one exec.
      const channelShell = await sandbox.shell("ps -eo user=,args= | grep -c '^root .*/bin/sh -c'")
      expect(Number(channelShell.stdout.toString().trim())).toBeGreaterThanOrEqual(1)
      expect(engine.requests.filter((line) => EXEC.test(line)).length - execsBefore).toBe(1)
      // Root ends the channel from outside it, in an exec of its own.
      const killed = await execIn(sandbox.container, ['pkill', '-f', '^/bin/sh -c'], { user: 'root' })
      expect(killed.exitCode).toBe(0)
      const execsThen = engine.requests.filter((line) => EXEC.test(line)).length
      await sandbox.computer.move(300, 300)
      expect(await sandbox.computer.cursorPosition()).toEqual({ x: 300, y: 300 })
      const check = await sandbox.shell('id -un; pwd')
      expect(check.stdout.toString()).toBe('root\n/\n')
      // Each of those three was an exec of its own.
      expect(engine.requests.filter((line) => EXEC.test(line)).length - execsThen).toBe(3)
    } finally {
      await sandbox.close()
      await engine.close()
    }
  })
})
