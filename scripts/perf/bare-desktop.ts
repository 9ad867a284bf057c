/**
 * P2's bare side: a desktop app in a container of the sandbox image with plain dockerode, no
 * harness. Create and start the container (same user and limits as agentest's), one exec that
 * waits for openbox, starts the app and waits until its window has the focus with the title the
 * task's setup waits for, one screenshot with the image's ImageMagick, then remove it.
 *
 * Nothing here imports the harness (src/).
 */
import { randomBytes } from 'node:crypto'
import type Docker from 'dockerode'

/** Every container the bare side makes carries this label, so a leftover is easy to find. */
export const BARE_LABEL = { key: 'agentest.perf', value: 'bare' } as const

export interface BareApp {
  /** Shell run first (files the app opens), or null. */
  prepare: string | null
  /** The app's command line, started in the background. */
  command: string
  /** An extended regex the focused window's title matches once the app is ready for keys. */
  title: string
}

export interface BareDesktopOptions {
  docker: Docker
  image: string
  limits: { memoryMb: number; cpus: number; pids: number }
  app: BareApp
  /** Extra labels (the comparison's own, to find its leftovers and no one else's). */
  labels?: Record<string, string>
  timeoutMs?: number
}

export interface BareDesktopResult {
  /** Create call until the container's display and window manager are up, in seconds. */
  display_s: number
  /** Create call until the app's window has the focus, in seconds. */
  ready_s: number
  /** Create call until the container is removed, in seconds. */
  whole_s: number
  screenshot: Buffer
}

const USER = 'agent'
const ENV = ['DISPLAY=:99', 'HOME=/home/agent']

export async function bareDesktop(options: BareDesktopOptions): Promise<BareDesktopResult> {
  const { docker, limits, app } = options
  const timeoutS = Math.ceil((options.timeoutMs ?? 60_000) / 1000)
  const started = performance.now()
  const startedAt = Date.now()
  const container = await docker.createContainer({
    name: `agentest-perf-bare-${randomBytes(4).toString('hex')}`,
    Image: options.image,
    User: USER,
    Labels: { ...options.labels, [BARE_LABEL.key]: BARE_LABEL.value },
    Env: ENV,
    HostConfig: {
      Memory: limits.memoryMb * 1024 * 1024,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pids,
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ShmSize: 256 * 1024 * 1024,
      Init: true,
    },
  })
  let ready_s: number
  let display_s: number
  let screenshot: Buffer
  try {
    await container.start()
    // One exec does it all: a round trip per probe would cost more than the probes. It says
    // when the display was up by the clock the container shares with the host.
    const title = app.title.replaceAll("'", `'\\''`)
    const script = [
      'until [ -e /tmp/openbox-ready ]; do sleep 0.02; done',
      'date +%s%3N',
      ...(app.prepare ? [app.prepare] : []),
      `${app.command} >/dev/null 2>&1 </dev/null &`,
      `until xdotool getactivewindow getwindowname 2>/dev/null | grep -qE -- '${title}'; do sleep 0.05; done`,
    ].join('\n')
    const launched = await exec(container, ['timeout', String(timeoutS), 'sh', '-c', script])
    if (launched.code !== 0) throw new Error(`the ${app.command} window titled /${app.title}/ did not come up (exit ${launched.code}): ${launched.stderr.trim()}`)
    ready_s = (performance.now() - started) / 1000
    const displayAt = Number(launched.stdout.toString().trim().split('\n')[0])
    if (!Number.isFinite(displayAt)) throw new Error(`the launch script did not say when the display was up: ${launched.stdout.toString().trim()}`)
    display_s = Math.max(0, (displayAt - startedAt) / 1000)
    const shot = await exec(container, ['import', '-window', 'root', 'png:-'])
    if (shot.code !== 0) throw new Error(`import failed (exit ${shot.code}): ${shot.stderr.trim()}`)
    screenshot = shot.stdout
  } finally {
    await container.remove({ force: true, v: true })
  }
  return { display_s, ready_s, whole_s: (performance.now() - started) / 1000, screenshot }
}

/** Runs a command as the desktop user and collects its output and exit code. */
async function exec(container: Docker.Container, cmd: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const created = await container.exec({ Cmd: cmd, User: USER, Env: ENV, WorkingDir: '/home/agent', AttachStdout: true, AttachStderr: true })
  const stream = await created.start({ hijack: true, stdin: false })
  const chunks: Buffer[] = []
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', resolve)
    stream.on('error', reject)
  })
  const { stdout, stderr } = demux(Buffer.concat(chunks))
  const { ExitCode } = await created.inspect()
  return { code: ExitCode, stdout, stderr: stderr.toString('utf8') }
}

/** Docker frames a non-TTY exec's output: 8-byte headers naming the stream and the size. */
function demux(raw: Buffer): { stdout: Buffer; stderr: Buffer } {
  const out: Buffer[] = []
  const err: Buffer[] = []
  let offset = 0
  while (offset + 8 <= raw.length) {
    const size = raw.readUInt32BE(offset + 4)
    ;(raw[offset] === 2 ? err : out).push(raw.subarray(offset + 8, offset + 8 + size))
    offset += 8 + size
  }
  return { stdout: Buffer.concat(out), stderr: Buffer.concat(err) }
}
