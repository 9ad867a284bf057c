/**
 * Runs one measured child process (a `vitest run`, or the bare script): wall time spawn to exit,
 * the CPU time of its whole tree, the machine's CPU meanwhile, and its tree's memory sampled
 * from /proc. A guard may stop it: then every process of the tree is killed by its pid (Chromium
 * sits in a process group of its own, so killing the group alone would leave it running).
 */
import { spawn } from 'node:child_process'
import { TreeSampler, type TreeMemory, type TreeSample } from './memory.ts'
import { childrenCpuSeconds, commandLine, machineCpuSeconds } from './proc.ts'

export interface ChildOptions {
  command: string
  args: string[]
  cwd: string
  env: Record<string, string>
  /** Tasks in flight now, for the memory samples. */
  inFlight?: () => number
  /** Asked on every sample: a reason to stop the run now, or null to let it go on. */
  guard?: (sample: TreeSample) => string | null
  intervalMs?: number
}

export interface ChildRun {
  code: number | null
  wall_s: number
  /** CPU seconds of the child's tree (the processes it waited for). */
  cpu_s: number
  /** CPU seconds of this process meanwhile (the in-process scripted model server, the sampler). */
  self_cpu_s: number
  /** When the child was spawned (ms since the epoch). */
  spawned_at: number
  /** CPU seconds the whole machine was busy meanwhile (other users included), and its capacity. */
  machine_busy_s: number
  machine_capacity_s: number
  memory: TreeMemory
  /** Why the guard stopped the run, or null when it ran to its end. */
  stopped: string | null
  stdout: string
  /** The last 8 kB of stderr. */
  stderr: string
}

export async function runMeasuredChild(options: ChildOptions): Promise<ChildRun> {
  const cpuBefore = childrenCpuSeconds()
  const machineBefore = machineCpuSeconds()
  const selfBefore = process.cpuUsage()
  const spawned_at = Date.now()
  const started = performance.now()
  // Its own process group, so a stop reaches the workers too.
  const child = spawn(options.command, options.args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8192)))
  const closed = new Promise<number | null>((done) => child.on('close', done))
  let stopped: string | null = null
  let killed = new Map<number, string>()
  const sampler = new TreeSampler(child.pid!, {
    intervalMs: options.intervalMs ?? 500,
    inFlight: options.inFlight,
    onSample: (sample, pids) => {
      if (stopped || !options.guard) return
      const reason = options.guard(sample)
      if (!reason) return
      stopped = reason
      killed = new Map(pids.map((pid) => [pid, commandLine(pid)]))
      killTree(child.pid!, pids)
    },
  }).start()
  const code = await closed
  if (killed.size) await sweep(killed)
  const memory = sampler.stop()
  const wall_s = (performance.now() - started) / 1000
  const machineAfter = machineCpuSeconds()
  const self = process.cpuUsage(selfBefore)
  return {
    code,
    wall_s,
    cpu_s: childrenCpuSeconds() - cpuBefore,
    self_cpu_s: (self.user + self.system) / 1e6,
    spawned_at,
    machine_busy_s: machineAfter.busy - machineBefore.busy,
    machine_capacity_s: machineAfter.total - machineBefore.total,
    memory,
    stopped,
    stdout,
    stderr,
  }
}

/**
 * A second pass over a stopped tree: a process that outlived the first kill (it was being
 * spawned then) and still runs the same command is killed again; a reused pid is left alone.
 */
async function sweep(pids: Map<number, string>): Promise<void> {
  await new Promise((done) => setTimeout(done, 500))
  for (const [pid, cmd] of pids) {
    if (cmd && commandLine(pid) === cmd) killTree(pid, [])
  }
}

/** SIGKILL to the child's group and to each process of its tree, by pid. */
function killTree(root: number, pids: number[]): void {
  const kill = (target: number) => {
    try {
      process.kill(target, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
  if (pids.length) kill(-root)
  for (const pid of pids.length ? pids : [root]) kill(pid)
}
