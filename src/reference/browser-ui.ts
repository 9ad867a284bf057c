import type { Locator, Page } from 'playwright'
import { z } from 'zod'
import type { Computer } from '../computer/computer.ts'
import { describeZodError, InputError } from '../errors/input-error.ts'
import { dollarAmounts, readableTexts } from './readable-text.ts'

/** What a reference step points at: a Playwright selector, or a locator built from `ui`. */
export type Target = string | Locator

const TextMatch = z.union([z.string(), z.instanceof(RegExp)])
const IsLocator = z.custom<Locator>((v) => typeof v === 'object' && v !== null && typeof (v as Locator).first === 'function', 'a locator (ui.locator(...), ui.getByRole(...))')

/** Playwright's locator filters; a misspelt one is refused, since Playwright would ignore it silently. */
const LocatorOptions = z
  .object({ has: IsLocator.optional(), hasNot: IsLocator.optional(), hasText: TextMatch.optional(), hasNotText: TextMatch.optional() })
  .strict()
export type LocatorOptions = z.input<typeof LocatorOptions>

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
  /** `ui.locator('#specs tr', { hasText: 'Weight' })`: the options are Playwright's filters. */
  locator(selector: string, options?: LocatorOptions): Locator {
    if (options === undefined) return this.page.locator(selector)
    const parsed = LocatorOptions.safeParse(options)
    if (!parsed.success) throw InputError.bare(describeZodError(`ui.locator('${selector}')`, parsed.error))
    return this.page.locator(selector, parsed.data)
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

  /**
   * The text the target shows a reader, one line per block (no step: looking is free). Hidden
   * parts and aria-hidden decoration are left out: a price reads "$129.97", not "$129.97$12997".
   */
  async text(target: Target): Promise<string> {
    const [text] = await this.resolve(target).evaluate(readableTexts)
    return text ?? ''
  }

  /** The one dollar amount the target shows, as a number: `await ui.price('#product-price')` is 129.97. */
  async price(target: Target): Promise<number> {
    const text = await this.text(target)
    const amounts = dollarAmounts(text)
    if (amounts.length !== 1) {
      throw new Error(`ui.price(${String(target)}): expected one dollar amount, found ${amounts.length} in ${JSON.stringify(text)}; point at one price`)
    }
    return amounts[0]!
  }

  /**
   * A two-column table (a header cell, then a value cell, each row) as a record, read as
   * `text` reads: `await ui.table('#specs')` is `{ Brand: 'Sony', ..., Price: '$348.00' }`.
   */
  async table(target: Target): Promise<Record<string, string>> {
    const table = this.resolve(target)
    await table.waitFor({ state: 'attached', timeout: 10_000 })
    const record: Record<string, string> = {}
    for (const row of await table.locator('tr').all()) {
      const cells = await row.locator(':scope > th, :scope > td').evaluateAll(readableTexts)
      if (cells.length >= 2) record[cells[0]!] = cells[cells.length - 1]!
    }
    return record
  }

  /** Centre of the target in viewport pixels, after wheel-scrolling it into view. */
  async reveal(target: Target): Promise<{ x: number; y: number }> {
    const { height, width } = this.computer.dimensions
    for (let attempt = 0; attempt < 6; attempt++) {
      const box = await this.boxOf(target, attempt === 0)
      if (!box) throw new Error(`cannot locate ${String(target)} on the page`)
      const centreY = box.y + box.height / 2
      if (box.y >= 0 && box.y + box.height <= height) {
        return { x: Math.round(box.x + box.width / 2), y: Math.round(centreY) }
      }
      await this.computer.scroll(Math.round(width / 2), Math.round(height / 2), 0, Math.round(centreY - height / 2))
    }
    throw new Error(`could not scroll ${String(target)} into view`)
  }

  /**
   * The target's box once it is visible. A selector the page's own querySelector understands is
   * measured there first: Playwright's locators load its selector engine into each new document,
   * which cost Chromium 0.06 CPU-seconds a page (more than the page's own load), and most
   * reference steps are a click on an id. Anything else, or an element not shown yet, goes to
   * Playwright, which waits for it.
   */
  private async boxOf(target: Target, waitVisible: boolean): Promise<Box | null> {
    if (typeof target === 'string') {
      const box = await this.page.evaluate(visibleBox, target).catch(() => null)
      if (box) return box
    }
    const locator = this.resolve(target)
    if (waitVisible) await locator.waitFor({ state: 'visible', timeout: 10_000 })
    return locator.boundingBox()
  }

  private resolve(target: Target): Locator {
    return typeof target === 'string' ? this.page.locator(target).first() : target.first()
  }
}

interface Box {
  x: number
  y: number
  width: number
  height: number
}

/**
 * Runs in the page (Playwright sends this function's source, so it calls no helper): the box of
 * the first element the selector matches, if it is visible as Playwright means it (a box of some
 * size, and visibility: visible); null when it is not, or the selector is not plain CSS.
 */
function visibleBox(selector: string): Box | null {
  let element: Element | null
  try {
    element = document.querySelector(selector)
  } catch {
    return null
  }
  if (!element || getComputedStyle(element).visibility !== 'visible') return null
  const { x, y, width, height } = element.getBoundingClientRect()
  return width > 0 && height > 0 ? { x, y, width, height } : null
}
