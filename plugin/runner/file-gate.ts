/**
 * Lets a worker run several task files at once. Vitest hands a non-isolated worker its files in
 * one batch and, for each in turn, collects it and runs it. The gate lets each file's run wait
 * until the batch's last file is collected (a file cannot be collected while a test runs), then
 * runs them all, at most `limit` at a time, in Vitest's order, and lets the worker report the
 * batch finished only once every one has ended.
 */
export class FileGate {
  private readonly queued: Array<() => Promise<unknown>> = []
  private running = 0

  constructor(private readonly limit: number) {}

  /** Queues one file's run; at the batch's last file, runs the queue and resolves when it is done. */
  async add(run: () => Promise<unknown>, last: boolean): Promise<void> {
    this.queued.push(run)
    if (!last) return
    const runs = this.queued.splice(0)
    let next = 0
    const lane = async () => {
      while (next < runs.length) {
        const run = runs[next++]!
        this.running++
        // A file's failures are its tests' results, already reported by the runner.
        await run().catch(() => undefined).finally(() => this.running--)
      }
    }
    await Promise.all(Array.from({ length: Math.min(this.limit, runs.length) }, lane))
  }

  /** Files queued or running. */
  get pending(): number {
    return this.queued.length + this.running
  }
}
