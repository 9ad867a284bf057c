import { existsSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OmnizonFinish } from '../../fixtures/apps/omnizon/state.ts'
import { startOmnizon, type OmnizonServer } from '../../fixtures/apps/omnizon/index.ts'

const CHROMIUM = '/usr/bin/chromium'

describe.skipIf(!existsSync(CHROMIUM))('Omnizon in Chromium', () => {
  let srv: OmnizonServer
  let browser: Browser

  beforeAll(async () => {
    srv = await startOmnizon()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    })
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
    await srv?.close()
  })

  const pageErrors: string[] = []

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    page.on('pageerror', (err) => pageErrors.push(String(err)))
    return page
  }

  it('searches, picks a quantity in the dropdown, buys now with another card on the last date', async () => {
    const page = await newPage()
    const cfg = await page.goto(`${srv.url}/config?task_id=browser-1&run_id=run-1`)
    expect(cfg?.status()).toBe(200)

    await page.goto(`${srv.url}/`)
    const dialog = page.getByRole('dialog', { name: 'Get 10% off your first Prime order' })
    await expect(dialog.isVisible()).resolves.toBe(true)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })

    await page.getByRole('searchbox', { name: 'Search Omnizon' }).fill('samsung galaxy s24 ultra')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.waitForURL(/\/search\?q=samsung/)
    await page.getByRole('link', { name: /^Samsung Galaxy S24 Ultra/ }).first().click()
    await page.waitForURL(/\/product\/p001$/)

    // The quantity dropdown: mouse for opening, then keyboard to land on 3.
    const qty = page.getByRole('button', { name: 'Qty: 1' })
    await qty.click()
    const listbox = page.getByRole('listbox', { name: 'Quantity' })
    expect(await listbox.isVisible()).toBe(true)
    expect(await listbox.getByRole('option').count()).toBe(30)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    expect(await listbox.isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Qty: 2' }).click()
    await listbox.getByRole('option', { name: '3', exact: true }).click()
    expect(await page.locator('#quantity-input').inputValue()).toBe('3')
    await page.getByRole('button', { name: 'Qty: 3' }).waitFor()

    await page.getByRole('button', { name: 'Buy Now' }).click()
    await page.waitForURL(/\/checkout\?buy_now=p001&qty=3$/)

    await page.getByRole('link', { name: 'Change payment method' }).click()
    await page.getByRole('radio', { name: /Mastercard ending in 4444/ }).check()
    await page.getByRole('radio', { name: 'Monday, Jul 21' }).check()
    await page.getByRole('button', { name: 'Place your order' }).click()
    await page.waitForURL(/\/confirmation\?order=OZ-1001$/)
    expect(await page.locator('#delivery-label').textContent()).toBe('Monday, Jul 21')
    expect(await page.locator('#order-total').textContent()).toBe('$3,359.97')

    const res = await page.request.get(`${srv.url}/finish`)
    expect(res.status()).toBe(200)
    const fin = OmnizonFinish.parse(await res.json())
    expect(fin.final.cart).toEqual([])
    expect(fin.final.searches).toEqual(['samsung galaxy s24 ultra'])
    expect(fin.final.viewed_products).toEqual(['p001'])
    expect(fin.final.popup).toEqual({ enabled: true, dismissed: true })
    expect(fin.final.location).toEqual({ path: '/confirmation', search: '?order=OZ-1001' })
    expect(fin.final.selected_card_id).toBe('card-2')
    expect(fin.final.orders).toHaveLength(1)
    expect(fin.final.orders[0]).toMatchObject({
      source: 'buy_now',
      items: [{ product_id: 'p001', quantity: 3, unit_price: 1119.99 }],
      total: 3359.97,
      card: { id: 'card-2' },
      delivery: { date: '2025-07-21', label: 'Monday, Jul 21' },
    })
    await page.context().close()
  }, 30_000)

  it('adds a card in the page, changes a cart quantity with the keyboard, and cancels the order', async () => {
    const page = await newPage()
    await page.goto(`${srv.url}/config?task_id=browser-2&run_id=run-1&remove_popup=true`)
    await page.goto(`${srv.url}/product/p028`)
    expect(await page.getByRole('dialog').count()).toBe(0)
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await page.waitForURL(/\/cart\?added=p028$/)

    const qty = page.locator('#qty-button-p028')
    await qty.focus()
    await page.keyboard.press('ArrowDown') // opens the list
    await page.keyboard.press('End') // 30
    await page.keyboard.press('ArrowUp') // 29
    await Promise.all([page.waitForURL(/\/cart$/), page.keyboard.press('Enter')])
    expect(await page.locator('#qty-button-p028').textContent()).toContain('Qty: 29')

    await page.getByRole('button', { name: 'Proceed to checkout' }).click()
    await page.getByRole('link', { name: 'Change payment method' }).click()
    await page.getByLabel('Name on card').fill('Jane Doe')
    await page.getByLabel('Card number').fill('4242 4242 4242')
    await page.getByLabel('Expiration month (MM)').fill('12')
    await page.getByLabel('Expiration year (YYYY)').fill('2029')
    await page.getByLabel('Security code (CVC)').fill('123')
    await page.getByRole('button', { name: 'Add your card' }).click()
    expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByLabel('Security code (CVC)').fill('123')
    await page.getByRole('button', { name: 'Add your card' }).click()
    expect(await page.locator('#selected-card').textContent()).toContain('Visa ending in 4242')

    await page.getByRole('button', { name: 'Place your order' }).click()
    await page.getByRole('link', { name: 'Review or cancel your orders' }).click()
    await page.getByRole('button', { name: 'Cancel order' }).click()
    await page.waitForURL(/\/orders\?cancelled=OZ-1001$/)

    const fin = OmnizonFinish.parse(await (await page.request.get(`${srv.url}/finish`)).json())
    expect(fin.final.orders[0]).toMatchObject({ status: 'cancelled', source: 'cart', items: [{ product_id: 'p028', quantity: 29 }], card: { id: 'card-3', number: '4242424242424242' } })
    expect(fin.final.cart).toEqual([])
    await page.context().close()
  }, 30_000)

  it('draws every product picture on the home page inside the page, each with its own gradients: no request for one', async () => {
    const page = await newPage()
    await page.goto(`${srv.url}/config?task_id=browser-3&run_id=run-3&remove_popup=true`)
    const requested: string[] = []
    page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    await page.goto(`${srv.url}/`)
    const pictures = await page.locator('svg.pic').evaluateAll((svgs) =>
      svgs.map((svg) => {
        const box = svg.getBoundingClientRect()
        const refs = [...svg.querySelectorAll('[fill^="url(#"]')].map((el) => el.getAttribute('fill')!.slice(5, -1))
        // A reference that resolves outside its own picture would draw another product's colours.
        const foreign = refs.filter((id) => !svg.contains(document.getElementById(id)))
        return { drawn: box.width > 0 && box.height > 0 && svg.childElementCount > 2, refs: refs.length, foreign }
      }),
    )
    expect(pictures.length).toBeGreaterThanOrEqual(80)
    expect(pictures.filter((p) => !p.drawn || p.refs === 0 || p.foreign.length > 0)).toEqual([])
    expect(await page.locator('img').count()).toBe(0)
    // The page and its icon, no picture.
    expect(requested.filter((path) => path !== '/favicon.svg')).toEqual(['/'])
    await page.context().close()
  }, 30_000)

  it('ran every page without a script error', () => {
    expect(pageErrors).toEqual([])
  })
})
