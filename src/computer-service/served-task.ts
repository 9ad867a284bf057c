import { performAction, describeAction } from '../computer/computer.ts'
import type { ServedContext } from './context.ts'
import type { ComputerAction } from '../schema/action.ts'
import type { FinishRequest } from './actions.ts'

/** The answer to one served action: its step number. A misclick is not an error: the agent sees it on the screen. */
export interface ActionResult {
  step: number
  /** e.g. "click (10, 20)" */
  did: string
  /** The page's URL after it, in a browser. */
  url: string | null
}

/** Why the served run is over, as the agent is told (and the HTTP status it gets). */
export class RunOverError extends Error {
  override name = 'RunOverError'
  constructor(
    readonly reason: 'finished' | 'stopped',
    message: string,
  ) {
    super(message)
  }
}

/**
 * One task's Computer as served to a program outside the harness (over MCP and HTTP). Every call
 * goes through the agent's recorded Computer: the step budget, the timeout, the blocklist, the
 * harness's own screenshots. Calls run one at a time, in the order they came. The first error
 * that ends the run (the step budget spent, the task stopped, a blocked URL, a dead sandbox) is
 * kept: the agent is told, and the harness ends the task with it.
 */
export class ServedTask {
  private queue: Promise<unknown> = Promise.resolve()
  private steps = 0
  private ended: FinishRequest | null = null
  private fatalError: unknown = null
  private readonly settled: Promise<FinishRequest>
  private resolve!: (value: FinishRequest) => void
  private reject!: (error: unknown) => void

  constructor(private readonly context: ServedContext) {
    this.settled = new Promise((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    // Nobody may be waiting yet; the error is read through `outcome`.
    this.settled.catch(() => {})
  }

  get task() {
    return this.context.task
  }
  /** The agent's sealed, recorded Computer (which actions it has decides the tools served). */
  get computer() {
    return this.context.computer
  }

  /** Settles when the agent calls finish (its answer), or rejects with the error that ended the run. */
  get outcome(): Promise<FinishRequest> {
    return this.settled
  }

  /** The run is over (finished or stopped): no more calls are taken. */
  get over(): boolean {
    return this.ended !== null || this.fatalError !== null
  }

  act(action: ComputerAction, thought?: string): Promise<ActionResult> {
    return this.serial(async () => {
      if (thought) this.context.think(thought)
      await performAction(this.context.computer, action)
      this.steps += 1
      const url = await this.context.computer.currentUrl().catch(() => null)
      return { step: this.steps, did: describeAction(action), url }
    })
  }

  /** The harness's own picture of the screen now (PNG); an observation, not a step. */
  screenshot(): Promise<Buffer> {
    return this.serial(() => this.context.computer.screenshot())
  }

  finish(request: FinishRequest): Promise<void> {
    return this.serial(async () => {
      this.ended = request
      this.resolve(request)
    })
  }

  /** Ends the run from the harness's side (the program exited, or the task was stopped). */
  fail(error: unknown): void {
    if (this.over) return
    this.fatalError = error
    this.reject(error)
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      this.refuseWhenOver()
      try {
        return await work()
      } catch (error) {
        // Every error the recorded Computer throws ends the run (a failed action is recorded, not thrown).
        this.fail(error)
        throw new RunOverError('stopped', messageOf(error))
      }
    })
    this.queue = next.catch(() => {})
    return next
  }

  private refuseWhenOver(): void {
    if (this.ended) throw new RunOverError('finished', 'the run is over: finish was called')
    if (this.fatalError) throw new RunOverError('stopped', `the run is over: ${messageOf(this.fatalError)}`)
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
