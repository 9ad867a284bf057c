import { randomBytes } from 'node:crypto'
import type Docker from 'dockerode'
import { XdotoolComputer } from '../computer/xdotool.ts'
import { containerLabels } from '../docker/labels.ts'
import { execIn, type ExecResult } from '../docker/exec.ts'
import { readFileFrom, writeFileTo } from '../docker/archive.ts'
import { errorLine, type Fault } from '../faults/kinds.ts'

export interface DesktopLimits {
  memoryMb: number
  cpus: number
  pids: number
}

export const DEFAULT_DESKTOP_LIMITS: DesktopLimits = { memoryMb: 2048, cpus: 1, pids: 512 }

export interface DesktopSandboxOptions {
  docker: Docker
  image: string
  runId: string
  taskId: string
  setupCmd: string | null
  network: boolean
  limits?: DesktopLimits
  readyTimeoutMs?: number
  /** A packaged agent's server runs in this container: its port is published on loopback. */
  agentServer?: AgentServerOptions
}

export interface AgentServerOptions {
  /** The container port the agent serves on. */
  port: number
  /** The spec's environment and secrets. */
  env: Record<string, string>
}

/** The task's setup_cmd failed; its stderr is part of the message. */
export class SetupCommandError extends Error {
  override name = 'SetupCommandError'
}

/** The user the agent, its apps and every action run as; the container's main process too. */
const USER = 'agent'
export const AGENT_HOME = '/home/agent'
const DISPLAY_ENV = { DISPLAY: ':99', HOME: AGENT_HOME }

/**
 * What a check's shell starts from: nothing the agent could have set. No login or rc files are
 * read, the environment is emptied (the container's, a packaged agent's secrets included), PATH
 * holds the system's own directories only, and HOME is not the agent's (tools read their
 * settings from HOME, and some run code found there).
 */
const CHECK_PATH = '/usr/sbin:/usr/bin:/sbin:/bin'
const CHECK_ENV = [`PATH=${CHECK_PATH}`, 'DISPLAY=:99', 'LANG=C.UTF-8', 'LC_ALL=C.UTF-8', 'TERM=dumb']

/** Who runs a command: root for checks (out of the agent's reach), the agent for its own work. */
export type ShellUser = 'root' | 'agent'


/**
 * One task's desktop: a fresh container with a random name, labelled with run and task, with
 * memory/CPU/pid limits, no network unless asked for, no privileges and no capabilities. It is
 * ready when the X display answers and the window manager runs; then setup_cmd runs.
 */
export class DesktopSandbox {
  readonly computer: XdotoolComputer

  private constructor(
    readonly container: Docker.Container,
    readonly name: string,
  ) {
    this.computer = new XdotoolComputer(async (command) => {
      const result = await this.exec(command, { timeoutMs: 30_000 })
      if (result.exitCode !== 0) {
        throw new Error(`${command[0]} failed (exit ${result.exitCode}): ${result.stderr.toString().trim().split('\n')[0]}`)
      }
      return result.stdout
    })
  }

  static async open(options: DesktopSandboxOptions): Promise<DesktopSandbox> {
    const { docker, limits = DEFAULT_DESKTOP_LIMITS } = options
    const name = `agentest-${options.taskId.replaceAll(/[^a-zA-Z0-9_.-]/g, '-')}-${randomBytes(4).toString('hex')}`
    const agent = options.agentServer
    const portKey = agent ? `${agent.port}/tcp` : null
    const container = await docker.createContainer({
      name,
      Image: options.image,
      // Whatever USER a packaged agent's image sets, its processes run unprivileged.
      User: USER,
      Labels: containerLabels(options.runId, options.taskId),
      Env: Object.entries({ ...agent?.env, ...DISPLAY_ENV }).map(([k, v]) => `${k}=${v}`),
      ...(portKey ? { ExposedPorts: { [portKey]: {} } } : {}),
      HostConfig: {
        Memory: limits.memoryMb * 1024 * 1024,
        NanoCpus: Math.round(limits.cpus * 1e9),
        PidsLimit: limits.pids,
        // A packaged agent needs a network to reach its model, and its port reachable from the
        // harness (on the host's loopback only).
        NetworkMode: options.network || agent ? 'bridge' : 'none',
        ...(portKey
          ? { PortBindings: { [portKey]: [{ HostIp: '127.0.0.1', HostPort: '' }] }, ExtraHosts: ['host.docker.internal:host-gateway'] }
          : {}),
        Privileged: false,
        // No capabilities, for the agent and for root alike: a check reads what any user may
        // read, and a file the agent hides from it fails the check rather than passing it.
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ShmSize: 256 * 1024 * 1024,
        Init: true,
      },
    })
    const sandbox = new DesktopSandbox(container, name)
    try {
      await container.start()
      await sandbox.waitUntilReady(options.readyTimeoutMs ?? 60_000)
      if (options.setupCmd) await sandbox.runSetup(options.setupCmd)
      return sandbox
    } catch (error) {
      // A container that died while starting (killed, OOM) fails setup too; say why it died.
      // Its exec can report the kill (exit 137) a moment before Docker marks the container.
      let gone: Fault | null = null
      for (let tries = 0; !gone && tries < 8; tries++) {
        gone = await sandbox.whyGone().catch(() => null)
        if (!gone) await new Promise((resolve) => setTimeout(resolve, 250))
      }
      await sandbox.close()
      if (gone) throw new Error(`${gone.message} while starting (${errorLine(error)})`)
      throw error
    }
  }

  /**
   * Runs a check's shell command where the agent cannot reach it: as root (unless `as: 'agent'`
   * runs the agent's own work, such as a script it wrote), in the agent's home, with no profile,
   * no rc files and a clean environment. The timeout is enforced inside the container.
   */
  async shell(command: string, timeoutMs = 60_000, as: ShellUser = 'root'): Promise<ExecResult> {
    const identity = as === 'agent' ? [`HOME=${AGENT_HOME}`, `USER=${USER}`] : ['HOME=/root', 'USER=root']
    const clean = ['/usr/bin/env', '-i', ...CHECK_ENV, ...identity, '/bin/bash', '--noprofile', '--norc', '-c', command]
    return execIn(this.container, clean, { user: as === 'root' ? 'root' : USER, workingDir: AGENT_HOME, timeoutMs })
  }

  async exec(command: string[], options: { timeoutMs?: number } = {}): Promise<ExecResult> {
    return execIn(this.container, command, { user: USER, env: DISPLAY_ENV, workingDir: '/home/agent', ...options })
  }

  readFile(path: string): Promise<Buffer> {
    return readFileFrom(this.container, path)
  }

  writeFile(path: string, content: Buffer | string): Promise<void> {
    return writeFileTo(this.container, path, content)
  }

  /** The host port (on 127.0.0.1) that a container port is published on. */
  async publishedPort(port: number): Promise<number> {
    const info = await this.container.inspect()
    const binding = info.NetworkSettings.Ports?.[`${port}/tcp`]?.[0]
    if (!binding?.HostPort) throw new Error(`container ${this.name}: port ${port} is not published`)
    return Number(binding.HostPort)
  }

  /** The gateway of the container's bridge network (where host.docker.internal points), or null without one. */
  async gateway(): Promise<string | null> {
    const info = await this.container.inspect()
    const networks = Object.values(info.NetworkSettings.Networks ?? {})
    return networks.find((network) => network.Gateway)?.Gateway ?? null
  }

  /** The container's last log lines (its main process's stdout and stderr). */
  async logs(tail = 20): Promise<string> {
    const raw = await this.container.logs({ stdout: true, stderr: true, tail, follow: false }).catch(() => null)
    if (!raw) return ''
    return demuxLogs(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw))).trim()
  }

  /** Whether the container is still running (a killed one is not). */
  async isRunning(): Promise<boolean> {
    const info = await this.container.inspect().catch(() => null)
    return info?.State.Running === true
  }

  /**
   * A process in the container was killed by the kernel at the container's memory limit, said
   * with the limit; null otherwise. Docker marks OOMKilled only once the container has stopped,
   * so a running one is asked through its memory cgroup's kill count (cgroup v2, then v1).
   */
  async oomKilled(): Promise<Fault | null> {
    const info = await this.container.inspect().catch(() => null)
    if (!info) return null
    if (!info.State.OOMKilled) {
      const events = ['sh', '-c', 'cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null']
      const read = await execIn(this.container, events, { user: 'root', timeoutMs: 5_000 }).catch(() => null)
      const kills = Number(/^oom_kill (\d+)$/m.exec(read?.stdout.toString() ?? '')?.[1] ?? 0)
      if (kills === 0) return null
    }
    const limit = info.HostConfig.Memory ? ` of ${Math.round(info.HostConfig.Memory / 1024 / 1024)} MB` : ''
    return { kind: 'out_of_memory', message: `a process in container ${this.name} was OOM-killed at its memory limit${limit}` }
  }

  /**
   * Why the container no longer works, in Docker's words, or null while it runs: removed,
   * OOM-killed at its memory limit, exited with a code, or the engine itself not answering.
   */
  async whyGone(): Promise<Fault | null> {
    let info: Docker.ContainerInspectInfo
    try {
      info = await this.container.inspect()
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode
      if (status === 404) return { kind: 'sandbox_gone', message: `container ${this.name} was removed` }
      return { kind: 'docker_unreachable', message: `the Docker engine did not answer about container ${this.name}: ${errorLine(error)}` }
    }
    const state = info.State
    if (state.Running && !state.Paused) return null
    if (state.OOMKilled) {
      const limit = info.HostConfig.Memory ? ` of ${Math.round(info.HostConfig.Memory / 1024 / 1024)} MB` : ''
      return { kind: 'out_of_memory', message: `container ${this.name} was OOM-killed at its memory limit${limit}` }
    }
    if (state.Paused) return { kind: 'sandbox_gone', message: `container ${this.name} was paused` }
    return { kind: 'sandbox_gone', message: `container ${this.name} exited with code ${state.ExitCode}${state.Error ? ` (${state.Error})` : ''}` }
  }

  /** Keeps the container for debugging: renamed agentest-kept-..., which cleanup leaves alone. */
  async keep(): Promise<string | null> {
    const kept = this.name.replace(/^agentest-/, 'agentest-kept-')
    const renamed = await this.container.rename({ name: kept }).then(() => true, () => false)
    return renamed ? kept : null
  }

  async close(): Promise<void> {
    await this.container.remove({ force: true, v: true }).catch(() => undefined)
  }

  /**
   * Waits inside the container (one exec polling every 50 ms, not a round trip per probe) until
   * the X display answers and openbox has claimed the screen.
   */
  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const ticks = Math.ceil(timeoutMs / 50)
    const probe = `for i in $(seq ${ticks}); do xdpyinfo >/dev/null 2>&1 && test -e /tmp/openbox-ready && exit 0; sleep 0.05; done; exit 1`
    const ready = await this.exec(['sh', '-c', probe], { timeoutMs: timeoutMs + 1_000 }).catch(() => null)
    if (ready?.exitCode === 0) return
    if (!(await this.isRunning())) throw new Error(`container ${this.name} stopped before its display was ready`)
    // What the display and the window manager last said is usually the reason.
    const logs = await this.exec(['sh', '-c', 'for f in xvfb openbox; do echo "$f: $(tail -n 2 /tmp/$f.log 2>/dev/null | tr "\\n" " ")"; done'], { timeoutMs: 5_000 }).catch(() => null)
    const said = logs?.stdout.toString().trim().split('\n').join('; ') ?? ''
    throw new Error(`container ${this.name}: the X display did not answer within ${timeoutMs} ms${said ? ` (${said})` : ''}`)
  }

  /** Runs setup_cmd in the background-friendly way OSUniverse does: apps it starts keep running. */
  private async runSetup(setupCmd: string): Promise<void> {
    // Output goes to files: an app the command starts in the background would otherwise hold
    // the exec's stream open until the timeout.
    // The window manager's own windows are there before setup; only new ones count as the app's.
    const before = await this.exec(['sh', '-c', `echo $(${WINDOW_STATE})`], { timeoutMs: 5_000 }).catch(() => null)
    const wrapped = `( ${setupCmd}
) >/tmp/agentest-setup.out 2>/tmp/agentest-setup.err; code=$?; cat /tmp/agentest-setup.err >&2; exit $code`
    // Setup is the task's, before the agent acts: it runs as the agent, so apps it starts are the agent's.
    const result = await this.exec(['bash', '-lc', wrapped], { timeoutMs: 120_000 })
    if (result.exitCode !== 0) {
      const stderr = result.stderr.toString().trim()
      throw new SetupCommandError(`setup_cmd failed (exit ${result.exitCode})${stderr ? `: ${stderr}` : ''}`)
    }
    await this.waitForWindowsToSettle(before?.stdout.toString() ?? '')
  }

  /**
   * Waits until the windows setup_cmd opened have appeared and stopped changing (the visible
   * windows and the focused one the same for 300 ms), or, when it opened none, until nothing has
   * changed for 1.5 s. The loop runs inside the container. A task whose app needs longer before
   * it reads keys waits for that in its setup_cmd (tasks/desktop/support.ts's `launch` waits
   * for the focused window's title, which a shell in xterm sets at its first prompt).
   */
  private async waitForWindowsToSettle(before: string, timeoutMs = 15_000): Promise<void> {
    const script = [
      `last=; same=0; for i in $(seq ${Math.ceil(timeoutMs / 50)}); do`,
      `  state=$(${WINDOW_STATE})`,
      '  if [ "$state" = "$last" ]; then same=$((same+1)); else same=0; last=$state; fi',
      '  opened=no; for w in $state; do case " $BEFORE " in *" $w "*) ;; *) opened=yes;; esac; done',
      '  [ $opened = yes ] && [ $same -ge 6 ] && exit 0',
      '  [ $opened = no ] && [ $same -ge 30 ] && exit 0',
      '  sleep 0.05',
      'done',
    ].join('\n')
    await execIn(this.container, ['sh', '-c', script], { user: USER, env: { ...DISPLAY_ENV, BEFORE: before }, timeoutMs: timeoutMs + 1_000 }).catch(() => null)
  }
}

/** The visible windows' ids, then the focused window's id: what setup's windows are judged by. */
const WINDOW_STATE = 'xdotool search --onlyvisible --name "" 2>/dev/null | sort; xdotool getactivewindow 2>/dev/null'

/** Docker multiplexes stdout and stderr of a container without a TTY in 8-byte-headed frames. */
function demuxLogs(raw: Buffer): string {
  const parts: Buffer[] = []
  let offset = 0
  while (offset + 8 <= raw.length && raw[offset]! <= 2 && raw.readUInt16BE(offset + 1) === 0) {
    const size = raw.readUInt32BE(offset + 4)
    parts.push(raw.subarray(offset + 8, offset + 8 + size))
    offset += 8 + size
  }
  return offset === 0 ? raw.toString('utf8') : Buffer.concat(parts).toString('utf8')
}
