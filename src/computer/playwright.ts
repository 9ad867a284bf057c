import type { BrowserContext, Page } from 'playwright'
import type { MouseButton, Point } from '../schema/action.ts'
import type { Computer } from './computer.ts'
import { toPlaywrightKey } from './keys.ts'

/** How long a click's navigation may take before the step is recorded anyway. */
const NAVIGATION_TIMEOUT_MS = 15_000

/**
 * The Computer over a Playwright browser context. It follows new tabs, and after each action
 * waits for a navigation the action started, so the step's screenshot shows its effect.
 */
export class PlaywrightComputer implements Computer {
  readonly environment = 'browser' as const
  readonly dimensions: { width: number; height: number }
  private current: Page
  private navigating = false

  constructor(
    private readonly context: BrowserContext,
    page: Page,
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

  async screenshot(): Promise<Buffer> {
    return this.page.screenshot({ type: 'png', fullPage: false, animations: 'disabled', caret: 'initial' })
  }

  async click(x: number, y: number, button: MouseButton = 'left'): Promise<void> {
    const page = this.page
    if (button === 'back') await page.goBack()
    else if (button === 'forward') await page.goForward()
    else if (button === 'wheel') await page.mouse.click(x, y, { button: 'middle' })
    else await page.mouse.click(x, y, { button })
    await this.settle()
  }

  async doubleClick(x: number, y: number): Promise<void> {
    await this.page.mouse.dblclick(x, y)
    await this.settle()
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number): Promise<void> {
    // Wheel events scroll whatever is under the pointer, as a person's wheel does.
    await this.page.mouse.move(x, y)
    await this.page.mouse.wheel(scrollX, scrollY)
    await this.page.waitForTimeout(100)
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text)
    await this.settle()
  }

  async wait(ms = 1000): Promise<void> {
    await this.page.waitForTimeout(ms)
  }

  async move(x: number, y: number): Promise<void> {
    await this.page.mouse.move(x, y)
  }

  /** Presses the keys as one chord: all down in order, then up in reverse. */
  async keypress(keys: string[]): Promise<void> {
    const mapped = keys.map(toPlaywrightKey)
    const keyboard = this.page.keyboard
    for (const key of mapped) await keyboard.down(key)
    for (const key of [...mapped].reverse()) await keyboard.up(key)
    await this.settle()
  }

  async drag(path: Point[]): Promise<void> {
    const [first, ...rest] = path
    if (!first) return
    const mouse = this.page.mouse
    await mouse.move(first.x, first.y)
    await mouse.down()
    for (const point of rest) await mouse.move(point.x, point.y, { steps: 4 })
    await mouse.up()
    await this.settle()
  }

  async currentUrl(): Promise<string> {
    return this.page.url()
  }

  /** Playwright's ARIA snapshot of the page: roles, names and states as indented YAML. */
  async accessibilityTree(): Promise<string> {
    return this.page.locator('body').ariaSnapshot()
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: 'load' })
  }

  async back(): Promise<void> {
    await this.page.goBack({ waitUntil: 'load' })
  }

  async forward(): Promise<void> {
    await this.page.goForward({ waitUntil: 'load' })
  }

  private watch(page: Page): void {
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.navigating = true
    })
    page.on('load', () => {
      this.navigating = false
    })
    page.on('requestfailed', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.navigating = false
    })
  }

  /** Gives an action's navigation a moment to start, then lets it finish loading. */
  private async settle(): Promise<void> {
    const page = this.page
    await page.waitForTimeout(50)
    if (!this.navigating) return
    await page.waitForEvent('load', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => undefined)
  }
}
