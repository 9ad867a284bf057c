import { startEnvironment, type RunningEnvironment, type StartContext } from './start.ts'
import { undeclaredEnvironment, type EnvironmentSpec, type EnvironmentStatus } from '../schema/environment.ts'

/**
 * The run's environments, each started the first time a task asks for it and then shared by
 * every task of the run: a run of Omnizon tasks never starts the inbox app. A start that fails
 * is remembered too: every task of that environment is skipped with the same reason.
 */
export class OnDemandEnvironments {
  private readonly starting = new Map<string, Promise<RunningEnvironment>>()

  constructor(
    private readonly specs: Record<string, EnvironmentSpec>,
    private readonly context: StartContext,
  ) {}

  /** Where the environment runs, or why it does not (undeclared, or its start failed). */
  async status(name: string): Promise<EnvironmentStatus> {
    const spec = Object.hasOwn(this.specs, name) ? this.specs[name] : undefined
    if (!spec) return { error: undeclaredEnvironment(name) }
    let started = this.starting.get(name)
    if (!started) {
      started = startEnvironment(name, spec, this.context)
      started.catch((error: unknown) => this.context.log(error instanceof Error ? error.message : String(error)))
      this.starting.set(name, started)
    }
    return started.then(
      (running) => ({ url: running.url }),
      (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
    )
  }

  /** Stops every environment that was started, waiting for those still starting. */
  async close(): Promise<void> {
    const started = await Promise.allSettled(this.starting.values())
    await Promise.allSettled(started.flatMap((result) => (result.status === 'fulfilled' ? [result.value.close()] : [])))
  }
}
