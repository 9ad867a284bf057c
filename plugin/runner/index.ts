import { TestRunner } from 'vitest'
import { FileGate } from './file-gate.ts'

type Trace = TestRunner['trace']
type RunnerConfig = ConstructorParameters<typeof TestRunner>[0]
interface WorkerBatch {
  ctx: { files: Array<{ filepath: string }> }
}

/**
 * The benchmark's test runner: Vitest's own, except that a worker runs up to `maxConcurrency`
 * (the run's `run.concurrency`) task files at once instead of one after another, so different
 * tasks share one worker process the way a file's attempts do. Collection, filters, hooks,
 * fixtures and reporting stay Vitest's.
 */
export default class AgentestRunner extends TestRunner {
  private readonly gate: FileGate

  constructor(config: RunnerConfig) {
    super(config)
    this.gate = new FileGate(Math.max(1, config.maxConcurrency))
    const trace = this.trace as (...args: unknown[]) => Promise<unknown>
    const batch = (this as unknown as { workerState: WorkerBatch }).workerState
    // @vitest/runner runs each file as `trace('run.spec', attributes, () => runSuite(file))`.
    this.trace = ((name: string, attributes: unknown, cb?: () => unknown) => {
      if (name !== 'run.spec' || typeof cb !== 'function' || attributes === null || typeof attributes !== 'object') return trace(name, attributes, cb)
      const last = batch.ctx.files.at(-1)?.filepath === (attributes as Record<string, unknown>)['code.file.path']
      return this.gate.add(() => trace(name, attributes, cb), last)
    }) as Trace
  }

  /** Vitest clears the worker's snapshot state after each file: only once no file is left to run. */
  override onAfterRunFiles(): void {
    if (this.gate.pending === 0) super.onAfterRunFiles()
  }
}
