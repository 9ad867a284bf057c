import type { ComputerAction, HoldableButton, MouseButton, Point } from '../schema/action.ts'
import type { Computer } from '../computer/computer.ts'
import type { Recorder } from './recorder.ts'
import type { Fault } from '../faults/kinds.ts'
import { LimitReachedError, type LimitHit } from '../limits/index.ts'

/** The step budget ran out. */
export class StepLimitError extends Error {
  override name = 'StepLimitError'
}

/** The task was stopped (timeout, Ctrl-C, bail) while the agent was acting. */
export class TaskAbortedError extends Error {
  override name = 'TaskAbortedError'
}

/** The sandbox died under the agent (a killed container, a closed browser). */
export class SandboxGoneError extends Error {
  override name = 'SandboxGoneError'
  constructor(readonly fault: Fault) {
    super(fault.message)
  }
}

/** A page tried to reach what the sandbox refuses: a blocklisted URL, a data:/javascript: page, a foreign socket. */
export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError'
}

export interface RecordingOptions {
  maxSteps: number
  signal: AbortSignal
  /** What pages tried to reach and were refused for since the task started (blocklist hits, foreign pages and sockets). */
  violations?: () => readonly string[]
  /** Why the sandbox stopped working, asked when an action fails; null while it is fine. */
  gone?: () => Promise<Fault | null>
  /** The task's token or cost limit, once passed: every later call is refused with it. */
  limit?: () => LimitHit | null
  /** false: steps go on record without a screenshot each (run.step_screenshots). */
  stepScreenshots?: boolean
}

/**
 * Wraps an agent's Computer: each action is one step, checked against the step budget and the
 * abort signal before it runs and recorded with a screenshot after. Every agent acts through
 * this, so all trajectories look alike and no agent can exceed max_steps.
 */
export class RecordingComputer implements Computer {
  private lastShot: Buffer | null = null

  constructor(
    private readonly inner: Computer,
    private readonly recorder: Recorder,
    private readonly options: RecordingOptions,
  ) {}

  get environment() {
    return this.inner.environment
  }
  get dimensions() {
    return this.inner.dimensions
  }
  get stepsTaken(): number {
    return this.recorder.steps.length
  }

  /** The screen now; reuses the screenshot taken after the last action when nothing happened since. */
  async screenshot(): Promise<Buffer> {
    this.guard(false)
    this.lastShot ??= await this.inner.screenshot()
    return this.lastShot
  }

  click(x: number, y: number, button: MouseButton = 'left', keys?: string[]) {
    return this.act({ type: 'click', x, y, button, ...heldKeys(keys) }, () => this.inner.click(x, y, button, keys))
  }
  doubleClick(x: number, y: number, keys?: string[]) {
    return this.act({ type: 'double_click', x, y, ...heldKeys(keys) }, () => this.inner.doubleClick(x, y, keys))
  }
  tripleClick(x: number, y: number, keys?: string[]) {
    return this.act({ type: 'triple_click', x, y, ...heldKeys(keys) }, () => this.inner.tripleClick(x, y, keys))
  }
  scroll(x: number, y: number, scrollX: number, scrollY: number, keys?: string[]) {
    return this.act({ type: 'scroll', x, y, scroll_x: scrollX, scroll_y: scrollY, ...heldKeys(keys) }, () =>
      this.inner.scroll(x, y, scrollX, scrollY, keys),
    )
  }
  mouseDown(button: HoldableButton = 'left') {
    return this.act({ type: 'mouse_down', button }, () => this.inner.mouseDown(button))
  }
  mouseUp(button: HoldableButton = 'left') {
    return this.act({ type: 'mouse_up', button }, () => this.inner.mouseUp(button))
  }
  holdKey(keys: string[], ms: number) {
    return this.act({ type: 'hold_key', keys, ms }, () => this.inner.holdKey(keys, ms))
  }
  /** An observation like a screenshot: budgeted by nothing, refused once the task is stopped. */
  async cursorPosition(): Promise<Point> {
    this.guard(false)
    return this.inner.cursorPosition()
  }
  type(text: string) {
    return this.act({ type: 'type', text }, () => this.inner.type(text))
  }
  wait(ms = 1000) {
    return this.act({ type: 'wait', ms }, () => this.inner.wait(ms))
  }
  move(x: number, y: number) {
    return this.act({ type: 'move', x, y }, () => this.inner.move(x, y))
  }
  keypress(keys: string[]) {
    return this.act({ type: 'keypress', keys }, () => this.inner.keypress(keys))
  }
  drag(path: Point[]) {
    return this.act({ type: 'drag', path }, () => this.inner.drag(path))
  }
  currentUrl() {
    return this.inner.currentUrl()
  }
  get accessibilityTree() {
    const inner = this.inner
    return inner.accessibilityTree ? () => inner.accessibilityTree!() : undefined
  }
  get goto() {
    const inner = this.inner
    return inner.goto ? (url: string) => this.act({ type: 'goto', url }, () => inner.goto!(url)) : undefined
  }
  get back() {
    const inner = this.inner
    return inner.back ? () => this.act({ type: 'back' }, () => inner.back!()) : undefined
  }
  get forward() {
    const inner = this.inner
    return inner.forward ? () => this.act({ type: 'forward' }, () => inner.forward!()) : undefined
  }

  /**
   * Records an action a packaged agent performed itself in its container. The agent is observed,
   * not believed: the step's picture is the harness's own screenshot of the screen now, and the
   * budget is the harness's count. A step reported past max_steps is refused (StepLimitError),
   * and the caller cancels the agent's run.
   */
  async recordReported(action: ComputerAction, error: string | null): Promise<void> {
    this.guard(true)
    const shot = await this.captureNow()
    if (this.options.signal.aborted) throw new TaskAbortedError(abortReason(this.options.signal))
    this.lastShot = shot
    await this.recorder.recordStep({ action, screenshot: shot, url: null, error })
  }

  private async act(action: ComputerAction, run: () => Promise<void>): Promise<void> {
    this.guard(true)
    this.lastShot = null
    let error: string | null = null
    try {
      await run()
    } catch (err) {
      if (this.options.signal.aborted) throw new TaskAbortedError(abortReason(this.options.signal))
      const gone = await this.options.gone?.().catch(() => null)
      if (gone) throw new SandboxGoneError(gone)
      error = err instanceof Error ? err.message.split('\n')[0]! : String(err)
    }
    const shot = this.options.stepScreenshots === false ? null : await this.captureNow()
    this.lastShot = shot
    const url = await this.inner.currentUrl().catch(() => null)
    // An action still under way when the task was stopped is not a step of the task.
    if (this.options.signal.aborted) throw new TaskAbortedError(abortReason(this.options.signal))
    await this.recorder.recordStep({ action, screenshot: shot, url, error })
    const blocked = this.options.violations?.()[0]
    if (blocked) throw new BlockedUrlError(`the page tried to load a blocked URL: ${blocked}`)
    // A failed action is the agent's problem to notice (as with a person's misclick); it is on record.
  }

  /**
   * The screen now, or null when it cannot be captured. One retry: a page mid-navigation on a
   * loaded machine can miss a capture. No screen usually means the sandbox died (a killed
   * container): that is thrown as such.
   */
  private async captureNow(): Promise<Buffer | null> {
    const shot = await this.inner.screenshot().catch(() => this.inner.screenshot()).catch(() => null)
    if (shot) return shot
    const gone = await this.options.gone?.().catch(() => null)
    if (gone) throw new SandboxGoneError(gone)
    return null
  }

  private guard(isAction: boolean): void {
    const { signal, maxSteps } = this.options
    if (signal.aborted) throw new TaskAbortedError(abortReason(signal))
    const limit = this.options.limit?.()
    if (limit) throw new LimitReachedError(limit)
    if (isAction && this.recorder.steps.length >= maxSteps) {
      throw new StepLimitError(`reached max_steps (${maxSteps})`)
    }
  }
}

/** Held keys go on the record only when there are some, so plain clicks record as before. */
function heldKeys(keys: string[] | undefined): { keys?: string[] } {
  return keys?.length ? { keys } : {}
}

export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason
  if (reason instanceof Error) return reason.message
  return typeof reason === 'string' ? reason : 'the task was aborted'
}
