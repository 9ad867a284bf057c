import { setTimeout as sleep } from 'node:timers/promises'
import type { BrowserContext, CDPSession, Page } from 'playwright'
import type { Computer } from '../../computer/computer.ts'
import type { PlaywrightComputer } from '../../computer/playwright.ts'
import type { HoldableButton, MouseButton, Point } from '../../schema/action.ts'
import type { Recorder } from '../../trajectory/recorder.ts'
import { StepLimitError } from '../../trajectory/recording-computer.ts'
import type { TaskSandbox } from '../kind.ts'
import type { CdpGateway } from './cdp-gateway.ts'

/** How often the harness looks at the screen while a CDP agent is connected. */
export const CDP_GLANCE_MS = 2_000

/** How long a navigation's page may take to load before its step is recorded anyway. */
const LOAD_WAIT_MS = 15_000

/** What the agent's turn is recorded into, and its budget. */
export interface CdpTurnStart {
  recorder: Recorder
  /** Navigations the agent may make (its Computer's actions count too); past it, it is cut off. */
  maxSteps: number
  /** The task's signal: when it fires, the agent is cut off. */
  signal: AbortSignal
}

export interface CdpTurnOptions {
  /** false: steps go on record without screenshots, and the screen is not watched between them. */
  stepScreenshots: boolean
  glanceMs?: number
}

/**
 * One task's turn of an agent that drives the browser over CDP (`agent.options.cdp: true`). It
 * hands out the task's CDP endpoint (a `CdpGateway`) when the turn begins, and records what the
 * harness sees of the browser through its own Playwright connection, while an agent is connected:
 *
 * - each main-frame navigation of any page (the agent's own tabs and contexts included) is a step,
 *   `goto` with the URL, on record as the page commits (in order with the agent's final answer)
 *   and with the harness's screenshot once that page has loaded (or the turn ended; an agent that
 *   leaves a page the moment it loads may leave its next screen in the picture, or none). These
 *   count against max_steps, with the agent's Computer actions if it also uses its Computer
 *   (whose own navigations are its steps, not recorded twice);
 * - every `CDP_GLANCE_MS` the screen (the newest page) is captured, and recorded as a `screenshot`
 *   step when it differs from the last picture on record (a blinking caret is not a change).
 *   These are the harness's looks and do not count against the budget.
 *
 * A navigation past the budget is not recorded: every agent connection is closed and no new one is
 * taken (`cutOffBy` says why). The task's signal, and the end of the turn, close them as well.
 */
export class CdpTurn {
  /** The sandbox's Computer: the Playwright one, telling this turn when one of its actions is under way. */
  readonly computer: Computer
  private readonly tracked: TrackedComputer
  private start: CdpTurnStart | null = null
  private active = false
  private work: Promise<void> = Promise.resolve()
  /** Navigation steps whose picture is still to come. */
  private queued = 0
  private readonly pictures = new Set<Promise<void>>()
  private glancing = false
  private lastShot: Buffer | null = null
  private timer: NodeJS.Timeout | null = null
  private stop: StepLimitError | null = null
  private readonly watched = new WeakSet<Page>()
  private readonly camera: Camera
  private readonly onPage = (page: Page) => this.watch(page)
  /** Settles when the turn is over: pictures still waiting for a load are taken then. */
  private readonly over: Promise<void>
  private settleOver!: () => void

  constructor(
    private readonly context: BrowserContext,
    readonly gateway: CdpGateway,
    private readonly inner: PlaywrightComputer,
    private readonly options: CdpTurnOptions,
  ) {
    this.tracked = new TrackedComputer(inner)
    this.computer = this.tracked
    this.camera = new Camera(context)
    this.over = new Promise((resolve) => (this.settleOver = resolve))
  }

  /** The agent's turn starts: the endpoint takes connections, and what it does is recorded. Returns the endpoint. */
  begin(start: CdpTurnStart): string {
    if (this.start) throw new Error('this task\'s CDP endpoint was already handed out')
    this.start = start
    this.active = true
    for (const page of this.context.pages()) this.watch(page)
    this.context.on('page', this.onPage)
    start.signal.addEventListener('abort', () => this.cutOff('agentest: the task was stopped'), { once: true })
    if (this.options.stepScreenshots) {
      // What the screen shows as the turn starts is no change of the agent's.
      this.chain(async () => {
        this.lastShot = await this.camera.capture(this.inner.page)
      })
      this.timer = setInterval(() => this.glance(), this.options.glanceMs ?? CDP_GLANCE_MS)
      this.timer.unref()
    }
    this.gateway.open()
    return this.gateway.url
  }

  /** Why the harness cut the agent off (its step budget was spent), or null. */
  get cutOffBy(): StepLimitError | null {
    return this.stop
  }

  /** The turn is over: no more steps, every agent connection closed. Waits for the steps under way. */
  async end(): Promise<void> {
    this.cutOff('agentest: the agent\'s turn is over')
    await Promise.all([this.work, ...this.pictures])
  }

  private cutOff(reason: string): void {
    this.active = false
    this.settleOver()
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.context.off('page', this.onPage)
    this.gateway.cutOff(reason)
  }

  private watch(page: Page): void {
    if (this.watched.has(page)) return
    this.watched.add(page)
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return
      const url = frame.url()
      // A new tab's first document, and Chromium's page for a load that was refused, are no place the agent went.
      if (url === 'about:blank' || url.startsWith('chrome-error:')) return
      this.navigated(page, url)
    })
  }

  /**
   * A main-frame navigation while the agent is connected: a step, put on record at once (so it is
   * in order with whatever the agent does next, its final answer included), its picture added
   * once the page has loaded, or when the turn ends, whichever is first.
   */
  private navigated(page: Page, url: string): void {
    const start = this.start
    // The agent's Computer records its own steps; a navigation with no agent connected is not the agent's.
    if (!start || !this.active || this.tracked.busy > 0 || this.gateway.connections === 0 || start.signal.aborted) return
    if (this.counted(start.recorder) >= start.maxSteps) {
      this.stop ??= new StepLimitError(`reached max_steps (${start.maxSteps}): the agent's CDP connection was closed at its next navigation (${url.slice(0, 200)})`)
      this.cutOff(`agentest: max_steps (${start.maxSteps}) reached`)
      return
    }
    // The Recorder puts the step on record before its first await: its place is kept from here.
    const step = start.recorder.recordStep({ action: { type: 'goto', url }, screenshot: null, url })
    if (!this.options.stepScreenshots) return
    // Not behind the other captures: an agent may leave the page soon after it loads.
    this.queued++
    const picture = (async () => {
      try {
        await Promise.race([page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => undefined), this.over])
        const shot = await this.camera.capture(page)
        const recorded = await step
        if (!shot) return
        this.lastShot = shot
        recorded.screenshot = await start.recorder.saveImage(`step-${String(recorded.index).padStart(3, '0')}.png`, shot)
      } finally {
        this.queued--
      }
    })().catch(() => undefined)
    this.pictures.add(picture)
    void picture.finally(() => this.pictures.delete(picture))
  }

  /** Records the screen when it changed since the last step's picture. */
  private glance(): void {
    const start = this.start
    if (!start || !this.active || this.glancing || this.queued > 0 || this.tracked.busy > 0 || this.gateway.connections === 0) return
    this.glancing = true
    this.chain(async () => {
      try {
        const page = this.inner.page
        const shot = await this.camera.capture(page)
        if (!shot || (this.lastShot && (await sameScreen(shot, this.lastShot)))) return
        // Only while the agent is still connected: after it let go, its answer may be on record already.
        if (!this.active || start.signal.aborted || this.gateway.connections === 0) return
        this.lastShot = shot
        await start.recorder.recordStep({ action: { type: 'screenshot' }, screenshot: shot, url: page.isClosed() ? null : page.url() })
      } finally {
        this.glancing = false
      }
    })
  }

  /** Steps that count against the budget: every one on record but the harness's own looks and the answer. */
  private counted(recorder: Recorder): number {
    return recorder.steps.filter((step) => step.action.type !== 'screenshot' && step.action.type !== 'message').length
  }

  /** Runs captures and records one at a time, in the order they were asked for. */
  private chain(work: () => Promise<void>): void {
    this.work = this.work.then(work).catch(() => undefined)
  }
}

/** How long a capture may take: a page whose server died mid-navigation may never paint. */
const CAPTURE_LIMIT_MS = 5_000

/** How often a failed capture is tried, and how long it waits between tries. */
const TRIES = 3
const RETRY_MS = 150

/** Differences no larger than this box are a text caret's blink, not a change of the screen. */
const CARET = { width: 4, height: 80 }

/**
 * Takes the viewport of the task's pages as PNG over CDP (fast, and unlike Playwright's own
 * screenshot it does not wait for a page that is being left), one session per page; null when it
 * cannot be taken.
 */
class Camera {
  private readonly sessions = new WeakMap<Page, Promise<CDPSession | null>>()

  constructor(private readonly context: BrowserContext) {}

  /**
   * The page now. A navigation that commits mid-capture fails it: then the screen a moment later
   * (which may already be the agent's next page), up to `TRIES` times.
   */
  async capture(page: Page): Promise<Buffer | null> {
    for (let attempt = 1; ; attempt++) {
      const shot = await this.once(page)
      if (shot || page.isClosed() || attempt === TRIES) return shot
      await sleep(RETRY_MS)
    }
  }

  private async once(page: Page): Promise<Buffer | null> {
    if (page.isClosed()) return null
    let session = this.sessions.get(page)
    if (!session) {
      session = this.context.newCDPSession(page).catch(() => null)
      this.sessions.set(page, session)
    }
    const cdp = await session
    if (!cdp) return null
    const shot = cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true }).catch(() => null)
    const taken = await Promise.race([shot, sleep(CAPTURE_LIMIT_MS, null, { ref: false })])
    return taken ? Buffer.from(taken.data, 'base64') : null
  }
}

/**
 * Whether two screenshots show the same screen: the same bytes, or pixels that differ only in a
 * strip no wider than a text caret (it blinks while a field has focus).
 */
export async function sameScreen(a: Buffer, b: Buffer): Promise<boolean> {
  if (a.equals(b)) return true
  const { default: sharp } = await import('sharp')
  const [x, y] = await Promise.all([sharp(a).ensureAlpha().raw().toBuffer({ resolveWithObject: true }), sharp(b).ensureAlpha().raw().toBuffer({ resolveWithObject: true })])
  const { width, height, channels } = x.info
  if (width !== y.info.width || height !== y.info.height || channels !== y.info.channels) return false
  let left = width
  let right = -1
  let top = height
  let bottom = -1
  const [p, q] = [x.data, y.data]
  for (let i = 0; i < p.length; i++) {
    if (p[i] === q[i]) continue
    const pixel = Math.floor(i / channels)
    const [px, py] = [pixel % width, Math.floor(pixel / width)]
    left = Math.min(left, px)
    right = Math.max(right, px)
    top = Math.min(top, py)
    bottom = Math.max(bottom, py)
    if (right - left >= CARET.width || bottom - top >= CARET.height) return false
  }
  return true
}

/** The Playwright Computer, counting the actions under way (a CDP turn leaves their navigations to them). */
class TrackedComputer implements Computer {
  busy = 0
  readonly goto?: (url: string) => Promise<void>
  readonly back?: () => Promise<void>
  readonly forward?: () => Promise<void>
  readonly accessibilityTree?: () => Promise<string>

  constructor(private readonly inner: PlaywrightComputer) {
    this.goto = (url) => this.acting(() => inner.goto(url))
    this.back = () => this.acting(() => inner.back())
    this.forward = () => this.acting(() => inner.forward())
    this.accessibilityTree = () => inner.accessibilityTree()
  }

  get environment() {
    return this.inner.environment
  }
  get dimensions() {
    return this.inner.dimensions
  }
  screenshot(): Promise<Buffer> {
    return this.inner.screenshot()
  }
  click(x: number, y: number, button?: MouseButton, keys?: string[]): Promise<void> {
    return this.acting(() => this.inner.click(x, y, button, keys))
  }
  doubleClick(x: number, y: number, keys?: string[]): Promise<void> {
    return this.acting(() => this.inner.doubleClick(x, y, keys))
  }
  tripleClick(x: number, y: number, keys?: string[]): Promise<void> {
    return this.acting(() => this.inner.tripleClick(x, y, keys))
  }
  scroll(x: number, y: number, scrollX: number, scrollY: number, keys?: string[]): Promise<void> {
    return this.acting(() => this.inner.scroll(x, y, scrollX, scrollY, keys))
  }
  mouseDown(button?: HoldableButton): Promise<void> {
    return this.acting(() => this.inner.mouseDown(button))
  }
  mouseUp(button?: HoldableButton): Promise<void> {
    return this.acting(() => this.inner.mouseUp(button))
  }
  type(text: string): Promise<void> {
    return this.acting(() => this.inner.type(text))
  }
  wait(ms?: number): Promise<void> {
    return this.inner.wait(ms)
  }
  move(x: number, y: number): Promise<void> {
    return this.acting(() => this.inner.move(x, y))
  }
  keypress(keys: string[]): Promise<void> {
    return this.acting(() => this.inner.keypress(keys))
  }
  holdKey(keys: string[], ms: number): Promise<void> {
    return this.acting(() => this.inner.holdKey(keys, ms))
  }
  drag(path: Point[]): Promise<void> {
    return this.acting(() => this.inner.drag(path))
  }
  cursorPosition(): Promise<Point> {
    return this.inner.cursorPosition()
  }
  currentUrl(): Promise<string | null> {
    return this.inner.currentUrl()
  }

  private async acting(action: () => Promise<void>): Promise<void> {
    this.busy++
    try {
      await action()
    } finally {
      this.busy--
    }
  }
}

const turns = new WeakMap<object, CdpTurn>()

/** Marks a task's sandbox as one whose agent is handed a CDP endpoint (the browser kind does, for `agent.options.cdp`). */
export function registerCdpTurn(sandbox: TaskSandbox, turn: CdpTurn): void {
  turns.set(sandbox, turn)
}

/** The CDP turn of a task's sandbox, or null when its agent gets no CDP endpoint. */
export function cdpTurnOf(sandbox: TaskSandbox): CdpTurn | null {
  return turns.get(sandbox) ?? null
}
