import type { Locator, Page } from 'playwright'
import type { Computer } from '../computer/computer.ts'

/** What a reference step points at: a Playwright selector, or a locator built from `ui`. */
export type Target = string | Locator

/**
 * Helpers for writing a task's reference solution in a browser. They may *look* at the page
 * (find an element's position, read text) but every change goes through the Computer as
 * clicks, scrolls and keys, so the oracle's trajectory is made of the same steps any agent's is.
 */
export class BrowserUi {
  constructor(
    readonly computer: Computer,
    private readonly currentPage: () => Page,
    readonly baseUrl: string,
  ) {}

  get page(): Page {
    return this.currentPage()
  }

  getByRole(...args: Parameters<Page['getByRole']>): Locator {
    return this.page.getByRole(...args)
  }
  getByLabel(...args: Parameters<Page['getByLabel']>): Locator {
    return this.page.getByLabel(...args)
  }
  getByText(...args: Parameters<Page['getByText']>): Locator {
    return this.page.getByText(...args)
  }
  getByTestId(...args: Parameters<Page['getByTestId']>): Locator {
    return this.page.getByTestId(...args)
  }
  locator(selector: string): Locator {
    return this.page.locator(selector)
  }

  /** Opens a path of the web clone (a recorded `goto` step). */
  async goto(path: string): Promise<void> {
    const goto = this.computer.goto
    if (!goto) throw new Error('this computer cannot navigate by URL')
    await goto(new URL(path, this.baseUrl).href)
  }

  /** Scrolls the target into view with wheel steps if needed, then clicks its centre. */
  async click(target: Target): Promise<void> {
    const { x, y } = await this.reveal(target)
    await this.computer.click(x, y)
  }

  /** Clicks a text field, selects what it holds and types over it. */
  async fill(target: Target, text: string): Promise<void> {
    await this.click(target)
    await this.computer.keypress(['ctrl', 'a'])
    await this.computer.type(text)
  }

  async press(...keys: string[]): Promise<void> {
    await this.computer.keypress(keys)
  }

  /** Reads an element's visible text (no step: looking is free). */
  async text(target: Target): Promise<string> {
    return (await this.resolve(target).innerText()).trim()
  }

  /** Centre of the target in viewport pixels, after wheel-scrolling it into view. */
  async reveal(target: Target): Promise<{ x: number; y: number }> {
    const locator = this.resolve(target)
    await locator.waitFor({ state: 'visible', timeout: 10_000 })
    const { height, width } = this.computer.dimensions
    for (let attempt = 0; attempt < 6; attempt++) {
      const box = await locator.boundingBox()
      if (!box) throw new Error(`cannot locate ${String(target)} on the page`)
      const centreY = box.y + box.height / 2
      if (box.y >= 0 && box.y + box.height <= height) {
        return { x: Math.round(box.x + box.width / 2), y: Math.round(centreY) }
      }
      await this.computer.scroll(Math.round(width / 2), Math.round(height / 2), 0, Math.round(centreY - height / 2))
    }
    throw new Error(`could not scroll ${String(target)} into view`)
  }

  private resolve(target: Target): Locator {
    return typeof target === 'string' ? this.page.locator(target).first() : target.first()
  }
}
