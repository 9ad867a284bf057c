import { chromium, type Browser, type BrowserContext, type Locator } from 'playwright'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startOmnizon, type OmnizonServer } from '../../fixtures/apps/omnizon/index.ts'
import { getProduct } from '../../fixtures/apps/omnizon/catalog.ts'
import { formatMoney } from '../../fixtures/apps/omnizon/shop.ts'
import { OmnizonClient } from '../../fixtures/apps/omnizon/view.ts'
import type { Computer } from '../../src/computer/computer.ts'
import { PlaywrightComputer } from '../../src/computer/playwright.ts'
import { BrowserUi } from '../../src/reference/browser-ui.ts'
import { OmnizonSteps } from '../../fixtures/apps/omnizon/steps.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'

// The task author's API (`ui`, `shop`) over a real Omnizon in a real Chromium.
// Each test drives a real browser: on a loaded 2-core machine one took over 30 s.
describe('the author API reads what a shopper sees and honours what it is given', { timeout: 90_000 }, () => {
  let server: OmnizonServer
  let browser: Browser
  let context: BrowserContext | undefined
  const P001 = getProduct('p001')!

  beforeAll(async () => {
    server = await startOmnizon()
    browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  }, 30_000)

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** A fresh shop session; `acts` counts the Computer's calls, so reading can be shown to act on nothing. */
  async function open(path: string, seed?: string) {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const computer = await PlaywrightComputer.open(context)
    const app = new OmnizonClient(server.url, context.request)
    await app.configure({ taskId: 'author-api', runId: 'test', removePopup: true, seed })
    await computer.goto(`${server.url}${path}`)
    let acts = 0
    const counted = new Proxy(computer, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          acts++
          return value.apply(target, args)
        }
      },
    }) as Computer
    const ui = new BrowserUi(counted, () => computer.page, server.url)
    return { ui, shop: new OmnizonSteps(ui), app, acts: () => acts }
  }

  it('ui.locator honours { hasText } and refuses an option Playwright would ignore', async () => {
    const { ui } = await open('/product/p001')
    expect(await ui.locator('#specs tr').count()).toBeGreaterThan(2)
    expect(await ui.locator('#specs tr', { hasText: 'Item ID' }).count()).toBe(1)
    expect(await ui.text(ui.locator('#specs tr', { hasText: 'Item ID' }).locator('td'))).toBe('p001')
    expect(await ui.locator('#specs tr', { hasNotText: /Item ID|Price|Brand/ }).count()).toBe(P001.specs.length)
    expect(() => ui.locator('#specs tr', { hastext: 'Item ID' } as never)).toThrow(/ui\.locator\('#specs tr'\).*hastext/)
  })

  it("ui.click on a selector: the first visible match, scrolled into view; one not shown yet is waited for; Playwright's own selectors still work", async () => {
    const { ui } = await open('/cart')
    await ui.page.setContent(`
      <style>button { display: block; width: 200px; height: 40px }</style>
      <button id="later" style="visibility: hidden" onclick="clicked.push('later')">later</button>
      <div style="height: 2400px"></div>
      <button class="b" onclick="clicked.push('first'); setTimeout(() => later.style.visibility = 'visible', 400)">first</button>
      <button class="b" onclick="clicked.push('second')">second</button>
      <script>window.clicked = []</script>`)
    await ui.click('.b')
    await ui.click('#later')
    await ui.click('button:has-text("second")')
    expect(await ui.page.evaluate(() => (window as unknown as { clicked: string[] }).clicked)).toEqual(['first', 'later', 'second'])
  })

  it('ui.text reads a price once, as shown ("$1,119.99", not its reading and its styled digits run together), and still reads an aria-hidden target', async () => {
    const { ui, acts } = await open('/product/p001')
    expect(await ui.text('#product-price')).toBe(formatMoney(P001.price))
    expect(await ui.text('#product-title')).toBe(P001.title)
    // omnizon-30 reads the rating figure, which is aria-hidden beside its star image.
    expect(await ui.text('#product-rating span[aria-hidden="true"]')).toBe(P001.rating.toFixed(1))
    expect(await ui.text('#product-rating')).toContain(`${P001.rating.toFixed(1)} out of 5 stars`)
    expect(acts()).toBe(0)
  })

  it("the reads existing tasks make are unchanged where nothing is hidden (omnizon-24, -29, -30)", async () => {
    const read = async (ui: BrowserUi, target: Locator | string) => {
      const locator = typeof target === 'string' ? ui.locator(target).first() : target.first()
      return { text: await ui.text(locator), innerText: (await locator.innerText()).trim() }
    }
    const same = ({ text, innerText }: { text: string; innerText: string }) => expect(text).toBe(innerText)
    const product = await open('/product/p122')
    same(await read(product.ui, '#product-title'))
    same(await read(product.ui, product.ui.locator('#specs tr', { hasText: 'Under-bed clearance' }).locator('td')))
    await context?.close()
    const results = await open('/search?q=neck+pillow&sort=rating')
    const card = results.ui.locator('[data-testid="product-card"]').first()
    same(await read(results.ui, card.locator('[data-testid="product-link"]')))
    same(await read(results.ui, card.locator('[data-testid="rating"] > span[aria-hidden="true"]')))
    await context?.close()
    const orders = await open('/orders', 'past-orders')
    const newest = orders.ui.locator('[data-testid="order"]').first()
    same(await read(orders.ui, newest.locator('h2 span')))
    same(await read(orders.ui, newest.locator('.order-head > div').nth(1).locator('b')))
    expect(await orders.ui.text(newest.locator('h2 span'))).toMatch(/^OZ-1003$/)
  })

  it('ui.price gives dollars as a number and refuses a target with several amounts', async () => {
    const { ui, shop, acts } = await open('/search?q=air+fryer&sort=price-asc')
    const card = ui.locator('[data-testid="product-card"]').first()
    expect(await ui.price(card.locator('[data-testid="price"]'))).toBe(49.99)
    // The card also says "on orders over $35": which amount was meant is the author's to say.
    await expect(ui.price(card)).rejects.toThrow(/expected one dollar amount, found \d+/)
    expect(acts()).toBe(0)
    await shop.openProduct('p091')
    expect(await shop.price()).toBe(49.99)
  })

  it('ui.table and shop.specs read the specifications table as a record', async () => {
    const { ui, shop, acts } = await open('/product/p001')
    const specs = Object.fromEntries(P001.specs.map((s) => [s.name, s.value]))
    const expected = { Brand: P001.brand, ...specs, Price: formatMoney(P001.price), 'Item ID': 'p001' }
    expect(await ui.table('#specs')).toEqual(expected)
    expect(await shop.specs()).toEqual(expected)
    expect(await shop.price()).toBe(P001.price)
    expect(acts()).toBe(0)
  })

  it('shop.buy pays with a saved card by id on the ISO delivery date; a date in words is refused at once', async () => {
    const { shop, app } = await open('/')
    await shop.buy({ search: 'air fryer', product: 'p091', card: 'card-2', delivery: '2025-07-21' })
    const order = (await app.finish()).lastOrder
    expect(order?.card.id).toBe('card-2')
    expect(order?.delivery.date).toBe('2025-07-21')
    await expect(shop.chooseDelivery('Monday, Jul 21')).rejects.toThrow('shop.chooseDelivery("Monday, Jul 21"): expected an ISO date, e.g. "2025-07-21"')
    await expect(shop.chooseCard('Mastercard')).rejects.toThrow(/shop\.chooseCard\("Mastercard"\): expected a saved card's id/)
  })
})
