import { createHash } from 'node:crypto'
import { appendFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { StepAction } from '../schema/action.ts'
import type { CheckResult, Step } from '../schema/run.ts'
import { describeAction } from '../computer/computer.ts'
import { redact } from '../secrets/redact.ts'
import { plainText } from '../files/plain-text.ts'

/** Each recorded step as one JSON line, in the task's folder. */
export const STEP_JOURNAL = 'steps.jsonl'

/** Shows a step or a check in the Vitest UI; may fail once the test is over, which is ignored. */
export type Annotate = (message: string, type: string, attachment?: { path: string; contentType: string }) => Promise<unknown>

/**
 * Keeps a task's trajectory: every step with its action, the thought before it and a PNG on
 * disk, and every check as it ran. Screenshots go to `<runDir>/<taskId>/` and are referenced
 * relative to `runDir`, so a run folder can be moved or shared as a whole.
 */
export class Recorder {
  readonly steps: Step[] = []
  readonly checks: CheckResult[] = []
  private thought = ''
  private ready: Promise<unknown> | null = null
  /** Step PNGs by the SHA-256 of their bytes: a transcript refers to the one a model was shown. */
  private readonly stepImages = new Map<string, string>()
  /**
   * A step's files and its line in the Vitest UI are written behind the agent, in order: the
   * next action need not wait for the disk or the main process. `flush()` waits for them.
   */
  private writes: Promise<void> = Promise.resolve()
  private writeError: unknown = null

  constructor(
    private readonly runDir: string,
    private readonly taskId: string,
    private readonly annotate: Annotate | null,
    /** Values that never reach the record: thoughts, typed text and errors are scrubbed of them. */
    readonly secrets: readonly string[] = [],
  ) {}

  /** Notes the agent's reasoning; it is attached to the next recorded step. */
  think(thought: string): void {
    const clean = redact(thought, this.secrets)
    this.thought = this.thought ? `${this.thought}\n${clean}` : clean
  }

  async recordStep(input: {
    action: StepAction
    screenshot: Buffer | null
    url: string | null
    error?: string | null
  }): Promise<Step> {
    const index = this.steps.length + 1
    const action = scrubAction(input.action, this.secrets)
    const png = input.screenshot
    const screenshot = png ? this.relative(`step-${String(index).padStart(3, '0')}.png`) : null
    if (png && screenshot) this.stepImages.set(createHash('sha256').update(png).digest('hex'), screenshot)
    const step: Step = {
      index,
      timestamp: Date.now(),
      action,
      thought: this.thought,
      screenshot,
      url: input.url,
      error: input.error ? plainText(redact(input.error, this.secrets)) : null,
    }
    this.thought = ''
    this.steps.push(step)
    const title = `step ${index}: ${describeAction(action)}${step.thought ? ` — ${step.thought}` : ''}`
    this.behind(async () => {
      if (png && screenshot) await this.saveFile(screenshot.slice(this.taskId.length + 1), png)
      // Step by step on disk too: a task whose worker dies keeps its partial trajectory (src/task/orphans.ts).
      await this.saveFile(STEP_JOURNAL, `${JSON.stringify(step)}\n`, 'append')
      await this.show(title, 'step', screenshot)
    })
    return step
  }

  /** Waits for every step's files; a write that failed fails here, where the record is made. */
  async flush(): Promise<void> {
    await this.writes
    if (this.writeError) throw this.writeError
  }

  private behind(work: () => Promise<void>): void {
    this.writes = this.writes.then(work).catch((error: unknown) => {
      this.writeError ??= error
    })
  }

  private relative(name: string): string {
    return `${this.taskId}/${name}`
  }

  async recordCheck(input: CheckResult): Promise<void> {
    const check = plainCheck(input)
    this.checks.push(check)
    const mark = check.score < 0 ? '○' : check.passed ? '✓' : '✗'
    // At once, not queued: a failing check's caller does not wait, and the test may end first.
    // The steps' lines are out by then (run() flushes them before the checks).
    await this.show(`${mark} ${check.check}${(check.passed && !check.judge) || !check.message ? '' : `: ${check.message}`}`, 'check', null)
  }

  /** The run-relative path of the step PNG with these bytes' SHA-256, or null. */
  stepImage(sha256: string): string | null {
    return this.stepImages.get(sha256) ?? null
  }

  /** Saves a PNG under the task's folder and returns its path relative to the run folder. */
  async saveImage(name: string, png: Buffer): Promise<string> {
    return this.saveFile(name, png)
  }

  private async saveFile(name: string, content: Buffer | string, mode: 'write' | 'append' = 'write'): Promise<string> {
    const dir = join(this.runDir, this.taskId)
    this.ready ??= mkdir(dir, { recursive: true })
    await this.ready
    await (mode === 'append' ? appendFile : writeFile)(join(dir, name), content)
    return this.relative(name)
  }

  /** Appends text to a file of the task's folder (an agent's log), scrubbed of the run's secrets. */
  async appendText(name: string, text: string): Promise<string> {
    // Appends to one file wait for each other, so lines land in the order they were written.
    const previous = this.appends.get(name) ?? Promise.resolve('')
    const next = previous.catch(() => '').then(() => this.saveFile(name, redact(text, this.secrets), 'append'))
    this.appends.set(name, next)
    return next
  }
  private readonly appends = new Map<string, Promise<string>>()

  /** Saves JSON evidence under the task's folder; returns its path relative to the run folder. */
  async saveJson(name: string, value: unknown): Promise<string> {
    return this.saveFile(name, `${JSON.stringify(value, null, 2)}\n`)
  }

  /** The files appended to so far (an agent's log), as paths in the run folder, once their writes landed. */
  async appendedFiles(): Promise<string[]> {
    const paths = await Promise.all([...this.appends.values()].map((append) => append.catch(() => null)))
    return [...new Set(paths.filter((path): path is string => Boolean(path)))]
  }

  absolute(relativePath: string): string {
    return join(this.runDir, relativePath)
  }

  private async show(message: string, type: string, screenshot: string | null): Promise<void> {
    if (!this.annotate) return
    const attachment = screenshot ? { path: this.absolute(screenshot), contentType: 'image/png' } : undefined
    await this.annotate(message, type, attachment).catch(() => undefined)
  }
}

/** A check's texts without terminal colours (a matcher's or a grader's message may carry them). */
function plainCheck(check: CheckResult): CheckResult {
  const plain = { ...check, message: check.message === null ? null : plainText(check.message) }
  for (const key of ['expected', 'received', 'diff'] as const) {
    const text = check[key]
    if (text !== undefined) plain[key] = plainText(text)
  }
  return plain
}

/** Text an action carries (typed text, a final message) without the run's secrets. */
function scrubAction(action: StepAction, secrets: readonly string[]): StepAction {
  if (action.type === 'type' || action.type === 'message') return { ...action, text: redact(action.text, secrets) }
  if (action.type === 'goto') return { ...action, url: redact(action.url, secrets) }
  return action
}
