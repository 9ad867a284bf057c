import type Docker from 'dockerode'
import { DEFAULT_DESKTOP_LIMITS, DesktopSandbox, type DesktopLimits, type DesktopSandboxOptions } from './desktop-sandbox.ts'

export interface WarmPoolOptions {
  docker: Docker
  runId: string
  /** Ready containers kept per image. */
  size: number
  /** The limits of the containers it starts: a task asking for others gets a fresh one. */
  limits?: DesktopLimits
  readyTimeoutMs?: number
}

interface Entry {
  /** The started container once its display is up; null if it failed to start (or the pool closed). */
  sandbox: Promise<DesktopSandbox | null>
  ready: boolean
}

/**
 * Desktop containers started ahead of the tasks: per image, `size` containers whose display and
 * window manager are up and in which nothing else ever ran. A task takes one (it is renamed for
 * the task, then its setup_cmd runs), never to come back: clean by construction. The pool refills
 * once the task's setup is done, so its apps do not start beside a starting container.
 *
 * Its containers carry the run's labels (task `warm-pool`), so a run's cleanup and its reaper
 * remove them like any other; close() removes those still waiting. A task whose container differs
 * (a network, other limits, a packaged agent's server) gets a fresh one from DesktopSandbox.open.
 */
export class WarmPool {
  private readonly pools = new Map<string, Entry[]>()
  private closed = false

  constructor(private readonly options: WarmPoolOptions) {}

  /** The task's sandbox: a warm container when one fits, else a fresh one; either way set up. */
  async open(options: DesktopSandboxOptions): Promise<DesktopSandbox> {
    if (this.closed || !this.fits(options)) return DesktopSandbox.open(options)
    const started = performance.now()
    const warm = await this.take(options.image)
    if (!warm) return DesktopSandbox.open(options)
    const took = performance.now() - started
    try {
      const sandbox = await warm.adopt(options)
      sandbox.timings.take = took
      return sandbox
    } finally {
      this.fill(options.image)
    }
  }

  /** Resolves once the image's pool holds its containers, started (starting them if it has none). */
  async filled(image: string): Promise<void> {
    await Promise.all(this.fill(image).map((entry) => entry.sandbox))
  }

  /** Removes every container it still holds (started or starting); later opens get fresh ones. */
  async close(): Promise<void> {
    this.closed = true
    const entries = [...this.pools.values()].flat()
    this.pools.clear()
    await Promise.all(entries.map(async (entry) => (await entry.sandbox)?.close()))
  }

  private fits(options: DesktopSandboxOptions): boolean {
    const want = options.limits ?? DEFAULT_DESKTOP_LIMITS
    const have = this.options.limits ?? DEFAULT_DESKTOP_LIMITS
    const sameLimits = want.memoryMb === have.memoryMb && want.cpus === have.cpus && want.pids === have.pids && sameDisk(want, have)
    return this.options.size > 0 && !options.network && !options.agentServer && options.runId === this.options.runId && sameLimits
  }

  /** A started container of the image, out of the pool for good: a ready one first, else the first starting. */
  private async take(image: string): Promise<DesktopSandbox | null> {
    const entries = this.fill(image)
    while (entries.length > 0) {
      const ready = entries.findIndex((entry) => entry.ready)
      const [entry] = entries.splice(Math.max(ready, 0), 1)
      const sandbox = await entry!.sandbox
      // One that died while it waited (killed, OOM) is removed, never handed out.
      if (sandbox && (await sandbox.isRunning())) return sandbox
      void sandbox?.close()
    }
    return null
  }

  /** Starts containers until the image's pool holds `size`; returns its entries. */
  private fill(image: string): Entry[] {
    let entries = this.pools.get(image)
    if (!entries) this.pools.set(image, (entries = []))
    while (!this.closed && entries.length < this.options.size) entries.push(this.start(image))
    return entries
  }

  private start(image: string): Entry {
    const { docker, runId, limits, readyTimeoutMs } = this.options
    const entry: Entry = { ready: false, sandbox: Promise.resolve(null) }
    entry.sandbox = DesktopSandbox.warm({ docker, image, runId, limits, readyTimeoutMs }).then(
      async (sandbox) => {
        entry.ready = true
        if (!this.closed) return sandbox
        await sandbox.close()
        return null
      },
      // A start that failed is not retried here: the task that would have taken it starts its
      // own container, and says why if that fails too.
      () => {
        entry.ready = true
        return null
      },
    )
    return entry
  }
}

/** The file-size limit a container was made with (src/sandbox/desktop/desktop-sandbox.ts), unset meaning the default. */
function sameDisk(want: DesktopLimits, have: DesktopLimits): boolean {
  return (want.diskMb ?? DEFAULT_DESKTOP_LIMITS.diskMb) === (have.diskMb ?? DEFAULT_DESKTOP_LIMITS.diskMb)
}
