import { setTimeout as sleep } from 'node:timers/promises'
import type { BrowserContext, CDPSession, Page, Request } from 'playwright'
import type { HoldableButton, MouseButton, Point } from '../schema/action.ts'
import { UrlPolicy } from '../urls/url-policy.ts'
import type { Computer } from './computer.ts'
import { toPlaywrightKey } from './keys.ts'

/** How long a click's navigation may take before the step is recorded anyway. */
const NAVIGATION_TIMEOUT_MS = 15_000

/** How long a page that is being left may take to ask for the next one. */
export const NAVIGATION_START_MS = 3_000

export interface PlaywrightComputerOptions {
  /**
   * Asked before `goto` opens a URL; false refuses it (the sandbox records why). By default only
   * web pages and about:blank open: never a data:, blob:, javascript: or file: URL.
   */
  mayOpen?: (url: string) => boolean
}

/** Without a sandbox's policy, `goto` still opens nothing but web pages. */
const WEB_ONLY = new UrlPolicy({ origins: [], allowHosts: [], blocklist: [] })

/**
 * The Computer over a Playwright browser context. It follows new tabs, and after each action
 * waits for a navigation the action started, so the step's screenshot shows its effect.
 */
/**
 * How long a CDP capture may take before Playwright's own screenshot is tried. A page that never
 * paints fails within it; on a busy machine (64 pages of one task's epochs repainting at once on
 * two cores) a capture took over 5 s, and a second capture started beside it only added load.
 */
const CDP_CAPTURE_LIMIT_MS = 20_000

export class PlaywrightComputer implements Computer {
  readonly environment = 'browser' as const
  readonly dimensions: { width: number; height: number }
  private current: Page
  private navigating = false
  private requests = 0
  private loads = 0
  private readonly cdp = new WeakMap<Page, Promise<CDPSession | null>>()
  /** Playwright moves the mouse but does not say where it is, so the computer remembers. */
  private pointer: Point = { x: 0, y: 0 }

  /** Opens the context's first page, with every document reporting when it is being left. */
  static async open(context: BrowserContext, options: PlaywrightComputerOptions = {}): Promise<PlaywrightComputer> {
    await context.addInitScript(markLeaving)
    const mayOpen = options.mayOpen ?? ((url: string) => WEB_ONLY.classifyNavigation(url) !== 'blocked')
    return new PlaywrightComputer(context, await context.newPage(), mayOpen)
  }

  private constructor(
    private readonly context: BrowserContext,
    page: Page,
    private readonly mayOpen: (url: string) => boolean,
  ) {
    this.current = page
    this.dimensions = page.viewportSize() ?? { width: 1280, height: 800 }
    this.watch(page)
    context.on('page', (opened) => {
      this.watch(opened)
      this.current = opened
    })
  }

  /** The page agents see now (the newest tab, or the last one left open). */
  get page(): Page {
    if (this.current.isClosed()) {
      const open = this.context.pages().filter((p) => !p.isClosed())
      const last = open[open.length - 1]
      if (last) this.current = last
    }
    return this.current
  }

  /**
   * The viewport as PNG. On Chromium it is captured over CDP with `optimizeForSpeed` (a faster
   * PNG encoder: about half the browser's time per step, for files some 40% larger); elsewhere,
   * or when CDP is refused, through Playwright. A CDP call has no time limit of its own (a page
   * whose server died mid-navigation may never paint), so it gets one, then Playwright's.
   */
  async screenshot(): Promise<Buffer> {
    const page = this.page
    const cdp = await this.cdpOf(page)
    if (cdp) {
      const capture = cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true }).catch(() => null)
      const shot = await Promise.race([capture, sleep(CDP_CAPTURE_LIMIT_MS, null, { ref: false })])
      if (shot) return Buffer.from(shot.data, 'base64')
    }
    return page.screenshot({ type: 'png', fullPage: false, caret: 'initial', timeout: 15_000 })
  }

  /** One CDP session per page, opened on first use; null where the browser has no CDP. */
  private cdpOf(page: Page): Promise<CDPSession | null> {
    let session = this.cdp.get(page)
    if (!session) {
      session = this.context.newCDPSession(page).catch(() => null)
      this.cdp.set(page, session)
    }
    return session
  }

  async click(x: number, y: number, button: MouseButton = 'left', keys?: string[]): Promise<void> {
    await this.act((page) => {
      if (button === 'back') return page.goBack()
      if (button === 'forward') return page.goForward()
      this.pointer = { x, y }
      return holding(page, keys, () => page.mouse.click(x, y, { button: button === 'wheel' ? 'middle' : button }))
    })
  }

  async doubleClick(x: number, y: number, keys?: string[]): Promise<void> {
    this.pointer = { x, y }
    await this.act((page) => holding(page, keys, () => page.mouse.dblclick(x, y)))
  }

  async tripleClick(x: number, y: number, keys?: string[]): Promise<void> {
    this.pointer = { x, y }
    await this.act((page) => holding(page, keys, () => page.mouse.click(x, y, { clickCount: 3 })))
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number, keys?: string[]): Promise<void> {
    // Wheel events scroll whatever is under the pointer, as a person's wheel does.
    const page = this.page
    this.pointer = { x, y }
    await page.mouse.move(x, y)
    await holding(page, keys, () => page.mouse.wheel(scrollX, scrollY))
    // The wheel returns before the page has scrolled: wait for the scrolling to end, not a pause.
    await page.evaluate(scrollingSettled).catch(() => undefined)
  }

  async mouseDown(button: HoldableButton = 'left'): Promise<void> {
    await this.act((page) => page.mouse.down({ button }))
  }

  async mouseUp(button: HoldableButton = 'left'): Promise<void> {
    await this.act((page) => page.mouse.up({ button }))
  }

  async holdKey(keys: string[], ms: number): Promise<void> {
    const page = this.page
    await this.act(() => holding(page, keys, () => page.waitForTimeout(ms)))
  }

  async cursorPosition(): Promise<Point> {
    return { ...this.pointer }
  }

  async type(text: string): Promise<void> {
    await this.act((page) => page.keyboard.type(text))
  }

  async wait(ms = 1000): Promise<void> {
    await this.page.waitForTimeout(ms)
  }

  async move(x: number, y: number): Promise<void> {
    this.pointer = { x, y }
    await this.page.mouse.move(x, y)
  }

  /** Presses the keys as one chord: all down in order, then up in reverse. */
  async keypress(keys: string[]): Promise<void> {
    const mapped = keys.map(toPlaywrightKey)
    await this.act(async ({ keyboard }) => {
      for (const key of mapped) await keyboard.down(key)
      for (const key of [...mapped].reverse()) await keyboard.up(key)
    })
  }

  async drag(path: Point[]): Promise<void> {
    const [first, ...rest] = path
    if (!first) return
    await this.act(async ({ mouse }) => {
      await mouse.move(first.x, first.y)
      await mouse.down()
      for (const point of rest) await mouse.move(point.x, point.y, { steps: 4 })
      await mouse.up()
    })
    this.pointer = path[path.length - 1]!
  }

  async currentUrl(): Promise<string> {
    return this.page.url()
  }

  /** Playwright's ARIA snapshot of the page: roles, names and states as indented YAML. */
  async accessibilityTree(): Promise<string> {
    return this.page.locator('body').ariaSnapshot()
  }

  /** Opens a URL, unless it is refused first: a data: or javascript: page would run the agent's own script. */
  async goto(url: string): Promise<void> {
    if (!this.mayOpen(url)) throw new Error(`goto refused: ${url.length > 100 ? `${url.slice(0, 100)}…` : url} is not a page of this task`)
    await this.page.goto(url, { waitUntil: 'load' })
  }

  async back(): Promise<void> {
    await this.page.goBack({ waitUntil: 'load' })
  }

  async forward(): Promise<void> {
    await this.page.goForward({ waitUntil: 'load' })
  }

  private watch(page: Page): void {
    const mainNavigation = (request: Request) => request.isNavigationRequest() && request.frame() === page.mainFrame()
    page.on('request', (request) => {
      if (!mainNavigation(request)) return
      this.navigating = true
      this.requests++
    })
    page.on('load', () => {
      this.navigating = false
      this.loads++
    })
    page.on('requestfailed', (request) => {
      if (mainNavigation(request)) this.navigating = false
    })
    // A document that is not a web page (a blob: or data: one) is stopped by the sandbox as it
    // opens, so it never fires load: it has arrived, there is nothing more to wait for.
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && !/^(https?|about):/.test(frame.url())) this.navigating = false
    })
  }

  /**
   * Runs an action, gives a navigation it started a moment to begin, then lets it finish loading.
   * On a loaded machine the browser may not have asked for the next page yet, so the page itself
   * is asked whether it is being left (or answers not at all, because it is already gone).
   */
  private async act(action: (page: Page) => Promise<unknown>): Promise<void> {
    const page = this.page
    const before = { requests: this.requests, loads: this.loads }
    await action(page)
    if (!this.navigating) {
      // Asked after the page's queued tasks have run (a click's navigation may be posted as one),
      // rather than after a fixed pause.
      const leaving = await page.evaluate(isLeavingAfterQueuedTasks).catch(() => true)
      if (!leaving) return
      const started = () => this.requests > before.requests || this.loads > before.loads
      await this.until(started, NAVIGATION_START_MS)
      // Whatever came of it, the document still showing is not being left any more (a new tab,
      // a download or a 204 keeps it).
      await page.evaluate(stay).catch(() => undefined)
    }
    await this.until(() => !this.navigating, NAVIGATION_TIMEOUT_MS)
  }

  /** Polls `done` until it holds or the time is up. */
  private async until(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!done() && Date.now() <= deadline) await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Runs `action` with modifier keys held down, released in reverse order even when it fails. */
async function holding(page: Page, keys: string[] | undefined, action: () => Promise<unknown>): Promise<void> {
  const mapped = (keys ?? []).map(toPlaywrightKey)
  const down: string[] = []
  try {
    for (const key of mapped) {
      await page.keyboard.down(key)
      down.push(key)
    }
    await action()
  } finally {
    for (const key of down.reverse()) await page.keyboard.up(key).catch(() => undefined)
  }
}

interface LeavingWindow {
  __agentestLeaving?: boolean
}

/**
 * Runs in every document: marks it as being left when a form is submitted (an Enter in a field
 * included) or any navigation reaches beforeunload. Both happen in the page before the browser
 * requests the next one.
 */
function markLeaving(): void {
  const flag = window as unknown as LeavingWindow
  window.addEventListener('submit', (event) => {
    if (!event.defaultPrevented) flag.__agentestLeaving = true
  })
  window.addEventListener('beforeunload', () => {
    flag.__agentestLeaving = true
  })
}

/** Whether the document is being left, once the tasks queued before this one have run. */
function isLeavingAfterQueuedTasks(): Promise<boolean> {
  return new Promise((resolve) => setTimeout(() => resolve((window as unknown as LeavingWindow).__agentestLeaving === true), 0))
}

function stay(): void {
  ;(window as unknown as LeavingWindow).__agentestLeaving = false
}

/**
 * Resolves when whatever the wheel scrolled has stopped: at its scrollend, or after two frames
 * without a scroll event (nothing was scrolling), and after half a second at most.
 */
function scrollingSettled(): Promise<void> {
  return new Promise((resolve) => {
    let scrolled = false
    const onScroll = () => {
      scrolled = true
    }
    const finish = () => {
      removeEventListener('scroll', onScroll, true)
      removeEventListener('scrollend', finish, true)
      clearTimeout(limit)
      resolve()
    }
    addEventListener('scroll', onScroll, true)
    addEventListener('scrollend', finish, true)
    const limit = setTimeout(finish, 500)
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (!scrolled) finish()
    }))
  })
}
