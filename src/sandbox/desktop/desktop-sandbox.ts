import { randomBytes } from 'node:crypto'
import type Docker from 'dockerode'
import { XdotoolComputer } from '../../computer/xdotool.ts'
import { containerLabels } from '../../docker/labels.ts'
import { runNetwork } from '../../docker/agent-network.ts'
import { execIn, type ExecResult } from '../../docker/exec.ts'
import { containerLogs } from '../../docker/logs.ts'
import { CommandChannel } from '../../docker/command-channel.ts'
import { readFileFrom, writeFileTo } from '../../docker/archive.ts'
import { errorLine, type Fault } from '../../faults/kinds.ts'
import { DesktopObserver } from '../../observer/observer.ts'
import type { ShellUser } from '../kind.ts'
import { parseListeners, type Listener } from '../../agent-images/listeners.ts'

export interface DesktopLimits {
  memoryMb: number
  cpus: number
  pids: number
  /** No file may grow past it (the kernel's RLIMIT_FSIZE); src/sandbox/desktop/disk-watch.ts bounds the total. */
  diskMb?: number
}

export const DEFAULT_DESKTOP_LIMITS = { memoryMb: 2048, cpus: 1, pids: 512, diskMb: 4096 } satisfies DesktopLimits

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
/**
 * Interpreters a check starts import nothing from the folder they run in or the user's site
 * (Python puts the current folder first on its module path: a json.py the agent left there would
 * decide what the check prints). Checks start in /, and Node finds no node_modules of the agent's.
 */
const ISOLATED_INTERPRETERS = ['PYTHONSAFEPATH=1', 'PYTHONNOUSERSITE=1', 'PYTHONDONTWRITEBYTECODE=1']
const CHECK_ENV = [`PATH=${CHECK_PATH}`, 'DISPLAY=:99', 'LANG=C.UTF-8', 'LC_ALL=C.UTF-8', 'TERM=dumb', ...ISOLATED_INTERPRETERS]

/**
 * What the desktop's own commands (actions, screenshots) run with, as root: the agent cannot
 * reach a root process's pipes, so it cannot answer in the channel's place. HOME and the working
 * folder are root's, so no settings file the agent wrote is read (ImageMagick reads some from HOME).
 */
const COMMAND_IDENTITY = {
  user: 'root',
  env: { DISPLAY: ':99', HOME: '/root', PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
  workingDir: '/',
}

/** Who runs a command: root for checks (out of the agent's reach), the agent for its own work. */
export type { ShellUser }


/** The phases of open() (and of a warm container's hand-over), in ms: for timing, in no record. */
export type DesktopPhase = 'create' | 'start' | 'ready' | 'setup' | 'settle' | 'take' | 'adopt'

/** What a warm pool's container is started with: no task yet, so no setup and no agent server. */
export interface WarmDesktopOptions {
  docker: Docker
  image: string
  runId: string
  limits?: DesktopLimits
  readyTimeoutMs?: number
}

/** The task label of a warm pool's container until a task takes it (it is renamed then). */
export const WARM_POOL_TASK = 'warm-pool'

/** Images that carry this label start as root and run everything of the agent's as the agent (see the desktop image's entrypoint). */
export const OBSERVER_LABEL = 'dev.agentest.observer'
const OBSERVER_ENTRYPOINT = '/usr/local/bin/agentest-desktop'

/**
 * One task's desktop: a fresh container with a random name, labelled with run and task, with
 * memory/CPU/pid limits, no network unless asked for, no privileges and no capabilities. It is
 * ready when the X display answers and the window manager runs; then setup_cmd runs.
 */
export class DesktopSandbox {
  readonly computer: XdotoolComputer
  /** How long each part of open() took, in ms (for timing; not part of any record). */
  readonly timings: Partial<Record<DesktopPhase, number>> = {}
  /** Records, as root, what the agent's processes do during its turn (see src/observer). */
  readonly observer: DesktopObserver

  private constructor(
    readonly container: Docker.Container,
    readonly name: string,
    private readonly observed: boolean,
  ) {
    this.observer = observed
      ? new DesktopObserver((argv, timeoutMs) => this.command(argv, timeoutMs))
      : DesktopObserver.without(`the image of container ${name} has no observer (label ${OBSERVER_LABEL}: build it FROM agentest/desktop)`)
    this.computer = new XdotoolComputer(async (command) => {
      const result = await this.command(command, 30_000)
      if (result.exitCode !== 0) {
        throw new Error(`${command[0]} failed (exit ${result.exitCode}): ${result.stderr.toString().trim().split('\n')[0]}`)
      }
      return result.stdout
    })
  }

  static async open(options: DesktopSandboxOptions): Promise<DesktopSandbox> {
    const started = performance.now()
    const sandbox = await DesktopSandbox.create(options, options.taskId, sandboxName(options.taskId))
    sandbox.timings.create = performance.now() - started
    return sandbox.starting(async () => {
      const mark = performance.now()
      await sandbox.container.start()
      sandbox.timings.start = performance.now() - mark
      await sandbox.prepare(options.setupCmd, options.readyTimeoutMs ?? 60_000)
    })
  }

  /**
   * A container for a warm pool: started, its display and window manager up, no task's setup
   * run and no task's name yet. Only adopt() hands it to a task, once.
   */
  static async warm(options: WarmDesktopOptions): Promise<DesktopSandbox> {
    const started = performance.now()
    const sandbox = await DesktopSandbox.create({ ...options, network: false }, WARM_POOL_TASK, sandboxName('pool'))
    sandbox.timings.create = performance.now() - started
    return sandbox.starting(async () => {
      const mark = performance.now()
      await sandbox.container.start()
      sandbox.timings.start = performance.now() - mark
      await sandbox.prepare(null, options.readyTimeoutMs ?? 60_000)
    })
  }

  /**
   * The task's sandbox in this warm container: renamed for the task (agentest-<task>-<random>),
   * then its setup_cmd runs as in open(). Its labels stay the pool's (Docker cannot change them).
   * This object is the pool's and is not used again; the task gets the returned one.
   */
  async adopt(options: Pick<DesktopSandboxOptions, 'taskId' | 'setupCmd' | 'readyTimeoutMs'>): Promise<DesktopSandbox> {
    const name = sandboxName(options.taskId)
    const started = performance.now()
    await this.container.rename({ name })
    const sandbox = new DesktopSandbox(this.container, name, this.observed)
    sandbox.timings.adopt = performance.now() - started
    return sandbox.starting(() => sandbox.prepare(options.setupCmd, options.readyTimeoutMs ?? 60_000))
  }

  private static async create(options: Omit<DesktopSandboxOptions, 'taskId' | 'setupCmd'>, taskLabel: string, name: string): Promise<DesktopSandbox> {
    const { docker, limits = DEFAULT_DESKTOP_LIMITS } = options
    const agent = options.agentServer
    const portKey = agent ? `${agent.port}/tcp` : null
    const imageConfig = await docker.getImage(options.image).inspect().then((info) => info.Config, () => null)
    const observed = imageConfig?.Labels?.[OBSERVER_LABEL] === '1'
    // The run's own network (src/docker/agent-network.ts): containers on it cannot reach each
    // other, and reach this machine at the model relays' ports only.
    const network = options.network || agent ? await runNetwork(docker, options.runId) : null
    const fileBytes = (limits.diskMb ?? DEFAULT_DESKTOP_LIMITS.diskMb) * 1024 * 1024
    const container = await docker.createContainer({
      name,
      Image: options.image,
      // Whatever USER a packaged agent's image sets, its processes run unprivileged: as the agent,
      // or, in an image with the observer, started by its entrypoint as root and dropped to the
      // agent before anything else runs (the entrypoint is forced, so an image cannot skip that).
      User: observed ? 'root' : USER,
      // Setting the entrypoint clears the image's CMD (a packaged agent's server): it is passed on,
      // in a shell that logs how the server ended.
      ...(observed ? { Entrypoint: [OBSERVER_ENTRYPOINT], Cmd: agent ? serverCommand(imageConfig?.Cmd ?? []) : (imageConfig?.Cmd ?? []) } : {}),
      Labels: containerLabels(options.runId, taskLabel),
      Env: Object.entries({ ...agent?.env, ...DISPLAY_ENV }).map(([k, v]) => `${k}=${v}`),
      ...(portKey ? { ExposedPorts: { [portKey]: {} } } : {}),
      HostConfig: {
        Memory: limits.memoryMb * 1024 * 1024,
        NanoCpus: Math.round(limits.cpus * 1e9),
        PidsLimit: limits.pids,
        // A packaged agent needs a network to reach its model, and its port reachable from the
        // harness (on the host's loopback only). host.docker.internal is the network's gateway,
        // where the relays listen (Docker's host-gateway is docker0's, which is firewalled).
        NetworkMode: network?.id ?? 'none',
        ...(portKey && network
          ? { PortBindings: { [portKey]: [{ HostIp: '127.0.0.1', HostPort: '' }] }, ExtraHosts: [`host.docker.internal:${network.gateway}`] }
          : {}),
        // One file cannot outgrow the disk limit even between two of the watcher's looks.
        Ulimits: [{ Name: 'fsize', Soft: fileBytes, Hard: fileBytes }],
        Privileged: false,
        // No capabilities for the agent. Root (the harness's own commands) may trace and stop the
        // agent's processes, and the entrypoint may become the agent; no more: a check reads what
        // any user may read, and a file the agent hides from it fails the check rather than passing
        // it. no-new-privileges keeps the agent from gaining any of them.
        CapDrop: ['ALL'],
        ...(observed ? { CapAdd: ['SYS_PTRACE', 'KILL', 'SETUID', 'SETGID'] } : {}),
        SecurityOpt: ['no-new-privileges'],
        ShmSize: 256 * 1024 * 1024,
        Init: true,
      },
    })
    return new DesktopSandbox(container, name, observed)
  }

  /** Runs the start; if it fails, the container goes, and a container that died is named with why. */
  private async starting(start: () => Promise<void>): Promise<DesktopSandbox> {
    try {
      await start()
      return this
    } catch (error) {
      // A container that died while starting (killed, OOM) fails setup too; say why it died.
      // Its exec can report the kill (exit 137) a moment before Docker marks the container.
      let gone: Fault | null = null
      for (let tries = 0; !gone && tries < 8; tries++) {
        gone = await this.whyGone().catch(() => null)
        if (!gone) await new Promise((resolve) => setTimeout(resolve, 250))
      }
      await this.close()
      if (gone) throw new Error(`${gone.message} while starting (${errorLine(error)})`)
      throw error
    }
  }

  /**
   * Runs a check's shell command where the agent cannot reach it: as root (unless `as: 'agent'`
   * runs the agent's own work, such as a script it wrote), in /, with no profile, no rc files, a
   * clean environment and interpreters that import nothing from where they run (a module the
   * agent planted in its home is never loaded). The timeout is enforced inside the container.
   */
  async shell(command: string, timeoutMs = 60_000, as: ShellUser = 'root'): Promise<ExecResult> {
    const identity = as === 'agent' ? [`HOME=${AGENT_HOME}`, `USER=${USER}`] : ['HOME=/root', 'USER=root']
    const clean = ['/usr/bin/env', '-i', ...CHECK_ENV, ...identity, '/bin/bash', '--noprofile', '--norc', '-c', command]
    if (as === 'agent') return execIn(this.container, clean, { user: USER, workingDir: '/', timeoutMs })
    // As root, through the command channel: a root process the agent cannot reach, started by
    // Docker like an exec, so the check starts as clean as in an exec of its own, without the
    // exec's cost (a task's checks and its solution's probes ran some seven execs per container).
    return this.command(clean, timeoutMs)
  }

  private channel: Promise<CommandChannel | null> | null = null

  /**
   * The desktop's own command, through the container's command channel (opened on first use).
   * Without one (an image without a POSIX shell, a channel that ended) it is a plain exec: a
   * command whose channel ended under it runs again that way, and in a container that is gone
   * the exec fails as it would have.
   */
  private async command(command: string[], timeoutMs: number): Promise<ExecResult> {
    this.channel ??= CommandChannel.open(this.container, COMMAND_IDENTITY).catch(() => null)
    const channel = await this.channel
    if (channel?.open) {
      const result = await channel.run(command, timeoutMs).catch(() => null)
      if (result) return result
    }
    return execIn(this.container, command, { ...COMMAND_IDENTITY, timeoutMs })
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

  /** The container's last log lines (its main process's stdout and stderr), without the line that says how the agent's server ended. */
  async logs(tail = 20): Promise<string> {
    const lines = (await containerLogs(this.container, tail + 1)).trim().split('\n')
    return lines.filter((line) => !SERVER_EXIT_LINE.test(line)).slice(-tail).join('\n').trim()
  }

  /**
   * How the packaged agent's server is doing: running, or exited with its code (from the line its
   * starting shell logs, see serverCommand); null when that cannot be told (no note of its pid:
   * an image without the observer, or a desktop still starting). Read as root, through the
   * desktop's command channel: the pid is noted where only root reads.
   */
  async agentServerState(): Promise<{ running: true } | { running: false; code: number | null } | null> {
    const probe = await this.command(['sh', '-c', SERVER_STATE], 5_000).catch(() => null)
    const said = probe?.stdout.toString().trim()
    if (said === 'running') return { running: true }
    if (said !== 'gone') return null
    const text = await containerLogs(this.container, 200)
    const code = [...text.matchAll(SERVER_EXIT)].at(-1)?.[1]
    return { running: false, code: code === undefined ? null : Number(code) }
  }

  /** The TCP sockets listening inside the container (its kernel's tables, read as root); null when unreadable. */
  async listening(): Promise<Listener[] | null> {
    const read = await this.command(['sh', '-c', 'cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; true'], 5_000).catch(() => null)
    return read ? parseListeners(read.stdout.toString()) : null
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
      // Through the root channel, as the desktop's own commands (the kernel's own files: nothing the agent can write).
      const read = await this.command(events, 5_000).catch(() => null)
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
    const channel = await this.channel
    channel?.close()
    await this.container.remove({ force: true, v: true }).catch(() => undefined)
  }

  /**
   * Makes the desktop the task's, in one exec (a round trip per step cost more than the steps):
   * waits until the X display answers and openbox has claimed the screen, then runs setup_cmd
   * and waits for the windows it opened to settle (PREPARE_SCRIPT). Its report lines say how far
   * it got and when.
   */
  private async prepare(setupCmd: string | null, readyTimeoutMs: number): Promise<void> {
    const started = performance.now()
    const budget = readyTimeoutMs + (setupCmd ? SETUP_TIMEOUT_MS + SETTLE_TIMEOUT_MS + 10_000 : 5_000)
    const args = [String(readyTimeoutMs), setupCmd ?? '', String(SETUP_TIMEOUT_MS / 1000), String(SETTLE_TIMEOUT_MS)]
    const result = await this.exec(['bash', '-c', PREPARE_SCRIPT, 'agentest-prepare', ...args], { timeoutMs: budget })
    const wall = performance.now() - started
    const out = result.stdout.toString()
    const at = (pattern: RegExp) => {
      const match = pattern.exec(out)
      return match ? match.slice(1).map(Number) : null
    }
    const ready = at(/^ready (\d+)$/m)
    if (!ready) {
      if (!(await this.isRunning())) {
        const logs = (await this.logs(5)).replaceAll('\n', ' ').trim()
        throw new Error(`container ${this.name} stopped before its display was ready${logs ? ` (its log: ${logs})` : ''}`)
      }
      // What the display and the window manager last said is usually the reason.
      let said = [...out.matchAll(/^log (.*)$/gm)].map((m) => m[1]).join('; ').trim()
      // On a busy machine the exec itself can run out of time before it says anything: ask again.
      if (!said) {
        const logs = await this.exec(['sh', '-c', 'for f in xvfb openbox; do echo "$f: $(tail -n 2 /tmp/$f.log 2>/dev/null | tr "\\n" " ")"; done'], { timeoutMs: 10_000 }).catch(() => null)
        said = logs?.stdout.toString().trim().split('\n').join('; ') ?? ''
      }
      throw new Error(`container ${this.name}: the X display did not answer within ${readyTimeoutMs} ms${said ? ` (${said})` : ''}`)
    }
    const setup = at(/^setup (\d+) (\d+)$/m)
    const settled = at(/^settled (\d+)$/m)
    // The exec's own cost (the round trip) is counted with the wait for the display.
    const inside = settled?.[0] ?? setup?.[1] ?? ready[0]!
    this.timings.ready = ready[0]! + Math.max(0, wall - inside)
    if (!setupCmd) return
    // Its own time limit reports `setup 124`: no report at all is an exec cut short (a killed container).
    if (!setup) throw new SetupCommandError(`setup_cmd did not finish (its exec ended with ${result.exitCode})`)
    this.timings.setup = setup[1]! - ready[0]!
    if (setup[0] !== 0) {
      const stderr = result.stderr.toString().trim()
      throw new SetupCommandError(`setup_cmd failed (exit ${setup[0]})${stderr ? `: ${stderr}` : ''}`)
    }
    if (settled) this.timings.settle = settled[0]! - setup[1]!
  }
}

const SETUP_TIMEOUT_MS = 120_000
const SETTLE_TIMEOUT_MS = 15_000

/**
 * The one exec of prepare(), in bash, as the agent: `bash -c PREPARE_SCRIPT agentest-prepare
 * <ready timeout ms> <setup_cmd or ''> <setup timeout s> <settle timeout ms>`. It prints
 * `ready <ms>` (or `log <file>: <last lines>` when the display did not come up in time), then
 * `setup <exit code> <ms>` and `settled <ms>`, each time since it started; setup_cmd's stderr
 * goes to stderr when it failed.
 *
 * Ready: openbox touches /tmp/openbox-ready from its --startup command once it manages the
 * screen (the entrypoint starts it only once Xvfb said it accepts connections), and xdpyinfo
 * answers. A builtin test every 20 ms, in here: any image that keeps that contract works.
 *
 * Setup runs as OSUniverse runs it (a login shell; apps it starts keep running), with its output
 * in files: an app it starts in the background would otherwise hold the exec's stream open.
 *
 * Settling: the windows setup opened have appeared and the visible windows and the focused one
 * stayed the same for 300 ms (openbox puts its frame round a window, maximised, 60-300 ms after
 * the window has the focus and its title: until then clicks would land elsewhere and the first
 * screenshot would be out of date). When it opened none, and left no process running, no window can
 * still come and there is nothing to wait for; when it left one running (an app still starting),
 * until nothing has changed for 1.5 s. Quiet is measured on the clock, whatever a probe costs.
 * A task whose app needs longer before it reads keys waits for that in its setup_cmd
 * (agentest's `launch` (src/desktop-helpers) waits for the focused window's title, which a shell in
 * xterm sets at its first prompt).
 */
const PREPARE_SCRIPT = [
  // The time in ms; bash before 5 has no EPOCHREALTIME.
  'now() { t=${EPOCHREALTIME//[!0-9]/}; [ -n "$t" ] || t=$(date +%s%6N); t=$(( t / 1000 )); }',
  'now; t0=$t',
  'until [ -e /tmp/openbox-ready ] && xdpyinfo >/dev/null 2>&1; do',
  '  now',
  '  if (( t - t0 >= $1 )); then',
  '    for f in xvfb openbox; do echo "log $f: $(tail -n 2 /tmp/$f.log 2>/dev/null | tr \'\\n\' \' \')"; done',
  '    exit 0',
  '  fi',
  '  sleep 0.02',
  'done',
  'now; echo "ready $(( t - t0 ))"',
  '[ -n "$2" ] || exit 0',
  'state() { echo $(xdotool search --onlyvisible --name \'\' 2>/dev/null | sort; xdotool getactivewindow 2>/dev/null); }',
  'opened() { for w in $1; do case " $before " in *" $w "*) ;; *) return 0;; esac; done; return 1; }',
  'before=$(state)',
  'procs=" $(echo /proc/[0-9]*) "',
  'timeout --kill-after=2s "$3s" bash -lc "( $2',
  ') >/tmp/agentest-setup.out 2>/tmp/agentest-setup.err"',
  'code=$?',
  'now; echo "setup $code $(( t - t0 ))"',
  'if [ $code -ne 0 ]; then cat /tmp/agentest-setup.err >&2; exit 0; fi',
  'left=no',
  'for p in /proc/[0-9]*; do',
  '  case "$procs" in *" $p "*) continue;; esac',
  '  c=; read -r -d \'\' c <"$p/cmdline" 2>/dev/null',
  '  [ -n "$c" ] && { left=yes; break; }',
  'done',
  'last=$(state); now; since=$t; end=$(( t + $4 ))',
  'if [ $left = yes ] || opened "$last"; then',
  '  while :; do',
  '    if opened "$last"; then quiet=300; else quiet=1500; fi',
  '    (( t - since >= quiet || t >= end )) && break',
  '    sleep 0.05',
  '    state=$(state); now',
  '    [ "$state" = "$last" ] || { last=$state; since=$t; }',
  '  done',
  'fi',
  'now; echo "settled $(( t - t0 ))"',
].join('\n')

/**
 * A packaged agent's server command, run by the entrypoint (as the agent) in a shell that logs
 * its exit code when it ends (128+n for signal n: 137 is SIGKILL). The server is not the
 * container's main process, and init, which reaps it, keeps no exit status to ask for.
 */
function serverCommand(cmd: string[]): string[] {
  if (cmd.length === 0) return cmd
  return ['/bin/sh', '-c', '"$@"; code=$?; echo "agentest-desktop: the agent server exited with code $code" >&2; exit $code', 'agentest-agent-server', ...cmd]
}
const SERVER_EXIT = /^agentest-desktop: the agent server exited with code (\d+)$/gm
const SERVER_EXIT_LINE = /^agentest-desktop: the agent server exited with code \d+$/

/**
 * Whether the process the entrypoint noted as the agent's server still runs (`running`), has
 * ended (`gone`: no such process, or a zombie init has yet to reap), or is not noted (`unknown`).
 */
const SERVER_STATE = [
  'p=$(cat /run/agentest/agent-server.pid 2>/dev/null)',
  'case "$p" in ""|*[!0-9]*) echo unknown; exit 0;; esac',
  's=$(sed -n "s/^State:[[:space:]]*\\([A-Z]\\).*/\\1/p" /proc/$p/status 2>/dev/null)',
  'case "$s" in ""|Z|X) echo gone;; *) echo running;; esac',
].join('\n')

/** agentest-<task>-<8 hex digits>: the task's id with what Docker refuses in a name replaced. */
function sandboxName(taskId: string): string {
  return `agentest-${taskId.replaceAll(/[^a-zA-Z0-9_.-]/g, '-')}-${randomBytes(4).toString('hex')}`
}

