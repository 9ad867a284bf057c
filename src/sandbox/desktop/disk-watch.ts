import type Docker from 'dockerode'
import { z } from 'zod'
import type { Fault } from '../../faults/kinds.ts'

/** How often a container's writes are measured: about 2 ms of the engine's time each (below). */
export const DISK_CHECK_MS = 2_000

const Sized = z.object({ SizeRw: z.number().optional() })
/** The engine's `?size=1` (dockerode passes it on; its types do not list it). */
const WITH_SIZE: Docker.ContainerInspectOptions & { size: boolean } = { size: true }

/**
 * Bounds what a desktop container writes. Docker can cap a container's writable layer only on
 * overlay2 over xfs with project quotas (or devicemapper, btrfs, zfs); on the usual ext4 it
 * cannot. So the harness measures it: the engine's size of the writable layer (`SizeRw`: the
 * files the container created or changed, sparse ones at their full length), every
 * DISK_CHECK_MS and whenever the harness asks why a sandbox failed. Past the limit, the container is
 * killed, which ends the task, and the fault is `disk_limit`. Between two looks a container may
 * write past the limit by what it writes in that time, but no single file grows past it: the
 * container's RLIMIT_FSIZE is the limit (src/sandbox/desktop/desktop-sandbox.ts). tmpfs mounts (/dev/shm) are
 * not in the layer: they are memory, under the memory limit.
 */
export class DiskWatch {
  private fault: Fault | null = null
  private timer: NodeJS.Timeout | null = null
  private stopped = false
  private checking: Promise<Fault | null> | null = null

  constructor(
    private readonly container: Docker.Container,
    private readonly name: string,
    readonly limitMb: number,
  ) {}

  /** Starts looking every `intervalMs`; it never keeps the process alive. */
  start(intervalMs = DISK_CHECK_MS): this {
    const next = () => {
      if (this.stopped || this.fault) return
      this.timer = setTimeout(() => void this.check().finally(next), intervalMs)
      this.timer.unref()
    }
    next()
    return this
  }

  /** The fault once the container was found past its limit, or null. Measures now (one look at a time). */
  check(): Promise<Fault | null> {
    if (this.fault || this.stopped) return Promise.resolve(this.fault)
    this.checking ??= this.measure().finally(() => (this.checking = null))
    return this.checking
  }

  private async measure(): Promise<Fault | null> {
    // A container that is gone has no size to ask: whyGone() says what happened to it, and a
    // removed one is not looked at again.
    const info = await this.container.inspect(WITH_SIZE).catch((error: unknown) => {
      if ((error as { statusCode?: number }).statusCode === 404) this.stop()
      return null
    })
    const written = Sized.safeParse(info).data?.SizeRw ?? 0
    if (this.fault || written <= this.limitMb * 1024 * 1024) return this.fault
    const message = `container ${this.name} wrote ${Math.round(written / 1024 / 1024)} MB, past its disk limit of ${this.limitMb} MB (docker.disk_mb); it was stopped`
    // Said once the container has stopped (Docker's kill waits for that), so no one sees it still running.
    await this.container.kill().catch(() => undefined)
    this.fault = { kind: 'disk_limit', message }
    return this.fault
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
  }
}
