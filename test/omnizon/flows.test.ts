import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOmnizon, deliveryOptions, type OmnizonServer } from '../../fixtures/apps/omnizon/index.ts'
import { Client, tagWithId } from './client.ts'

let srv: OmnizonServer
beforeAll(async () => {
  srv = await startOmnizon()
})
afterAll(async () => {
  await srv.close()
})

async function fresh(query = 'task_id=t&run_id=r&remove_popup=true'): Promise<Client> {
  const c = new Client(srv.url)
  await c.config(query)
  return c
}

describe('delivery options', () => {
  it('are the business days from Wednesday, Jul 16 to Monday, Jul 21', () => {
    expect(deliveryOptions()).toEqual([
      { date: '2025-07-16', label: 'Wednesday, Jul 16' },
      { date: '2025-07-17', label: 'Thursday, Jul 17' },
      { date: '2025-07-18', label: 'Friday, Jul 18' },
      { date: '2025-07-21', label: 'Monday, Jul 21' },
    ])
  })
})

describe('cart', () => {
  it('adds, merges, caps at 30, changes quantity and removes lines', async () => {
    const c = await fresh()
    const added = await c.post('/cart/add', { product_id: 'p050', quantity: '2' })
    expect(added.url).toBe('/cart?added=p050')
    expect(added.text).toContain('Added to cart')
    await c.post('/cart/add', { product_id: 'p028', quantity: '1' })
    await c.post('/cart/add', { product_id: 'p050', quantity: '3' })
    let s = await c.state()
    expect(s.cart).toEqual([
      { product_id: 'p050', title: expect.stringMatching(/^KTC 24 inch/), unit_price: 129.99, quantity: 5 },
      { product_id: 'p028', title: expect.stringMatching(/^Redragon K552/), unit_price: 29.99, quantity: 1 },
    ])
    const capped = await c.post('/cart/add', { product_id: 'p050', quantity: '30' })
    expect(capped.text).toContain('limited to 30')
    await c.post('/cart/update', { product_id: 'p028', quantity: '7' })
    s = await c.state()
    expect(s.cart.map((l) => l.quantity)).toEqual([30, 7])
    expect((await c.post('/cart/update', { product_id: 'p028', quantity: '31' })).status).toBe(400)
    expect((await c.post('/cart/add', { product_id: 'p028', quantity: '0' })).status).toBe(400)
    const cart = await c.post('/cart/remove', { product_id: 'p050' })
    expect(cart.text).not.toContain('id="cart-line-p050"')
    expect(cart.text).toContain('id="qty-button-p028"')
    expect(cart.text).toContain('id="cart-subtotal" data-testid="cart-subtotal" data-value="209.93"')
    expect((await c.state()).cart.map((l) => l.product_id)).toEqual(['p028'])
  })
})

describe('checkout', () => {
  it('Buy Now orders just that product and quantity and leaves the cart alone', async () => {
    const c = await fresh()
    await c.post('/cart/add', { product_id: 'p050', quantity: '1' })
    const checkout = await c.post('/buy-now', { product_id: 'p001', quantity: '2' })
    expect(checkout.url).toBe('/checkout?buy_now=p001&qty=2')
    expect(checkout.text).toContain('data-source="buy_now"')
    expect(checkout.text).toContain('$2,239.98')
    const confirmation = await c.post('/checkout/place', { buy_now: 'p001', qty: '2', card_id: 'card-2', delivery: '2025-07-21' })
    expect(confirmation.url).toBe('/confirmation?order=OZ-1001')
    expect(confirmation.text).toContain('OZ-1001')
    expect(confirmation.text).toContain('Monday, Jul 21')
    const fin = await c.finish()
    const s = fin.final
    expect(s.cart.map((l) => l.product_id)).toEqual(['p050'])
    expect(s.orders).toHaveLength(1)
    expect(s.orders[0]).toMatchObject({
      id: 'OZ-1001',
      placed_at: '2025-07-14T10:00:00.000Z',
      status: 'placed',
      items: [{ product_id: 'p001', unit_price: 1119.99, quantity: 2 }],
      subtotal: 2239.98,
      shipping: 0,
      total: 2239.98,
      card: { id: 'card-2', number: '5555555555554444' },
      delivery: { date: '2025-07-21', label: 'Monday, Jul 21' },
      source: 'buy_now',
    })
    expect(s.selected_card_id).toBe('card-2')
    expect(fin.diff.map((d) => `${d.op} ${d.path}`)).toEqual([
      'added cart[0]',
      'changed location.path',
      'changed location.search',
      'added orders[0]',
      'changed selected_card_id',
    ])
  })

  it('a cart checkout orders the cart, empties it, and charges shipping under $35', async () => {
    const c = await fresh()
    await c.post('/cart/add', { product_id: 'p049', quantity: '1' }) // $9.99 earbuds
    await c.post('/cart/add', { product_id: 'p051', quantity: '1' }) // adds a second line
    await c.post('/cart/remove', { product_id: 'p051' })
    const page = await c.get('/checkout')
    expect(page.text).toContain('data-source="cart"')
    expect(page.text).toContain('id="summary-shipping">$5.99')
    const conf = await c.post('/checkout/place', { card_id: 'card-1', delivery: '2025-07-17' })
    expect(conf.url).toBe('/confirmation?order=OZ-1001')
    const s = await c.state()
    expect(s.cart).toEqual([])
    expect(s.orders[0]).toMatchObject({ source: 'cart', subtotal: 9.99, shipping: 5.99, total: 15.98, delivery: { label: 'Thursday, Jul 17' } })
    // an empty cart cannot be ordered again
    expect((await c.post('/checkout/place', { card_id: 'card-1', delivery: '2025-07-17' })).status).toBe(400)
    expect((await c.state()).orders).toHaveLength(1)
  })

  it('refuses an unknown delivery date or card', async () => {
    const c = await fresh()
    await c.post('/cart/add', { product_id: 'p001', quantity: '1' })
    const badDate = await c.post('/checkout/place', { card_id: 'card-1', delivery: '2025-07-19' })
    expect(badDate.status).toBe(422)
    expect(badDate.text).toContain('Choose a delivery date.')
    const badCard = await c.post('/checkout/place', { card_id: 'card-9', delivery: '2025-07-16' })
    expect(badCard.status).toBe(422)
    expect((await c.state()).orders).toEqual([])
  })

  it('changes the selected card with "Use this payment method"', async () => {
    const c = await fresh()
    await c.post('/cart/add', { product_id: 'p001', quantity: '1' })
    const open = await c.get('/checkout?change=payment')
    expect(open.text).toContain('id="card-radio-card-2"')
    const back = await c.post('/checkout/payment', { card_id: 'card-2', delivery: '2025-07-18' })
    expect(back.url).toBe('/checkout?delivery=2025-07-18')
    expect(tagWithId(back.text, 'delivery-2025-07-18')).toContain('checked')
    expect(back.text).toContain('Mastercard ending in 4444')
    expect((await c.state()).selected_card_id).toBe('card-2')
  })

  it('validates a new card inline and saves a valid one as selected', async () => {
    const c = await fresh()
    await c.post('/cart/add', { product_id: 'p001', quantity: '1' })
    const bad = await c.post('/checkout/card', { holder: ' ', number: '4111 1111 1111', exp_month: '13', exp_year: '2026', cvc: '12' })
    expect(bad.status).toBe(422)
    for (const id of ['card-holder', 'card-number', 'card-exp-month', 'card-cvc']) {
      expect(tagWithId(bad.text, id)).toContain('aria-invalid="true"')
    }
    expect(tagWithId(bad.text, 'card-exp-year')).not.toContain('aria-invalid')
    expect(bad.text).toContain('Enter the name on the card.')
    expect(bad.text).toContain('The card number must be 16 digits.')
    expect(bad.text).toContain('The expiration month must be between 1 and 12.')
    expect(bad.text).toContain('The security code must be 3 or 4 digits.')
    expect(bad.text).toContain('role="alert"')

    const expired = await c.post('/checkout/card', { holder: 'Jane Doe', number: '4000 0000 0000 0002', exp_month: '6', exp_year: '2025', cvc: '123' })
    expect(expired.status).toBe(422)
    expect(tagWithId(expired.text, 'card-exp-year')).toContain('aria-invalid="true"')
    expect(expired.text).toContain('This card has expired.')
    expect((await c.state()).cards).toHaveLength(2)

    const ok = await c.post('/checkout/card', { holder: '  John   Smith ', number: '4000 0000 0000 0002', exp_month: '07', exp_year: '25', cvc: '9876' })
    expect(ok.status).toBe(200)
    expect(ok.url).toBe('/checkout')
    expect(ok.text).toContain('Visa ending in 0002')
    const s = await c.state()
    expect(s.cards[2]).toEqual({ id: 'card-3', holder: 'John Smith', number: '4000000000000002', exp_month: 7, exp_year: 2025, cvc: '9876' })
    expect(s.selected_card_id).toBe('card-3')
  })

  it('keeps the Buy Now context through card and address changes', async () => {
    const c = await fresh()
    const card = await c.post('/checkout/card', { buy_now: 'p088', qty: '3', delivery: '2025-07-17', holder: 'J D', number: '5105105105105100', exp_month: '12', exp_year: '2030', cvc: '321' })
    expect(card.url).toBe('/checkout?buy_now=p088&qty=3&delivery=2025-07-17')
    const bad = await c.post('/checkout/address', { buy_now: 'p088', qty: '3', name: 'Ann', street: '', city: 'Portland', state: 'OR', zip: '97201', country: 'United States' })
    expect(bad.status).toBe(422)
    expect(tagWithId(bad.text, 'address-street')).toContain('aria-invalid="true"')
    const addr = await c.post('/checkout/address', { buy_now: 'p088', qty: '3', name: 'Ann Lee', street: '1 Main St', city: 'Portland', state: 'OR', zip: '97201', country: 'United States' })
    expect(addr.url).toBe('/checkout?buy_now=p088&qty=3')
    await c.post('/checkout/place', { buy_now: 'p088', qty: '3', card_id: 'card-3', delivery: '2025-07-16' })
    const s = await c.state()
    expect(s.address).toEqual({ name: 'Ann Lee', street: '1 Main St', city: 'Portland', state: 'OR', zip: '97201', country: 'United States' })
    expect(s.orders[0]).toMatchObject({ source: 'buy_now', items: [{ product_id: 'p088', quantity: 3 }], card: { id: 'card-3' }, shipping_address: { name: 'Ann Lee' } })
  })
})

describe('orders', () => {
  it('cancels orders, shows them newest first, and does not cancel twice', async () => {
    const c = await fresh('task_id=t&run_id=r&seed=past-orders&remove_popup=true')
    const list = await c.get('/orders')
    const at = (id: string) => list.text.indexOf(`id="order-${id}"`)
    expect(at('OZ-1003')).toBeGreaterThan(0)
    expect(at('OZ-1003')).toBeLessThan(at('OZ-1002'))
    expect(at('OZ-1002')).toBeLessThan(at('OZ-1001'))
    const after = await c.post('/orders/cancel', { order_id: 'OZ-1003' })
    expect(after.url).toBe('/orders?cancelled=OZ-1003')
    expect(after.text).toContain('Order OZ-1003 has been cancelled.')
    expect(after.text).not.toContain('id="cancel-OZ-1003"')
    await c.post('/orders/cancel', { order_id: 'OZ-1002' })
    await c.post('/orders/cancel', { order_id: 'OZ-1002' })
    expect((await c.post('/orders/cancel', { order_id: 'OZ-9999' })).status).toBe(404)
    const fin = await c.finish()
    expect(fin.final.orders.map((o) => o.status)).toEqual(['placed', 'cancelled', 'cancelled'])
    expect(fin.diff.filter((d) => d.path.startsWith('orders'))).toEqual([
      { op: 'changed', path: 'orders[1].status', before: 'placed', after: 'cancelled' },
      { op: 'changed', path: 'orders[2].status', before: 'placed', after: 'cancelled' },
    ])
  })

  it('numbers new orders after the seeded ones', async () => {
    const c = await fresh('task_id=t&run_id=r&seed=past-orders&remove_popup=true')
    const conf = await c.post('/checkout/place', { buy_now: 'p010', qty: '1', card_id: 'card-1', delivery: '2025-07-16' })
    expect(conf.url).toBe('/confirmation?order=OZ-1004')
  })

  it('records viewed products in order', async () => {
    const c = await fresh()
    await c.get('/product/p001')
    await c.get('/product/p002')
    await c.get('/product/p001')
    expect((await c.state()).viewed_products).toEqual(['p001', 'p002', 'p001'])
  })
})
