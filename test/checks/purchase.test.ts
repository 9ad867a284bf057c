import { describe, expect, test } from 'vitest'
import { OmnizonView } from '../../fixtures/apps/omnizon/view.ts'
import { expectPurchase, type PurchaseRule } from '../../fixtures/apps/omnizon/checks.ts'
import type { Order, OmnizonState } from '../../fixtures/apps/omnizon/state.ts'
import { checksOf } from './record-checks.ts'

const card = { id: 'c1', holder: 'A', number: '4111111111111111', exp_month: 1, exp_year: 2030, cvc: '123' }
const address = { name: 'A', street: 'S', city: 'C', state: 'ST', zip: '1', country: 'US' }

function order(id: string, lines: Array<[string, number, number]>, extra: Partial<Order> = {}): Order {
  const items = lines.map(([product_id, quantity, unit_price]) => ({ product_id, title: product_id, unit_price, quantity }))
  const subtotal = items.reduce((sum, line) => sum + line.unit_price * line.quantity, 0)
  return { id, placed_at: '2025-07-14T10:00:00.000Z', status: 'placed', items, subtotal, shipping: 0, total: subtotal, card, delivery: { date: '2025-07-18', label: 'Fri' }, shipping_address: address, source: 'buy_now', ...extra }
}

function shopWith(orders: Order[]): OmnizonView {
  const state = (list: Order[]): OmnizonState => ({
    cart: [],
    orders: list,
    cards: [card],
    selected_card_id: 'c1',
    address,
    searches: [],
    viewed_products: [],
    location: { path: '/', search: '' },
    popup: { enabled: false, dismissed: false },
  })
  return new OmnizonView({ schema: 'omnizon.finish/v1', task_id: 't', run_id: 'r', initial: state([]), final: state(orders), diff: [] })
}

const rule: PurchaseRule = { items: [{ product: ['p028', 'p030'], quantity: 1 }], route: 'buy_now', unitPrice: { below: 60 } }
const failing = (orders: Order[], r: PurchaseRule = rule) =>
  Object.entries(checksOf((e) => expectPurchase(e, shopWith(orders), r))).filter(([, ok]) => !ok).map(([label]) => label)

describe('expectPurchase: exactly one placed, uncancelled purchase', () => {
  test('the right order passes every part', () => {
    expect(failing([order('o1', [['p030', 1, 39.99]])])).toEqual([])
  })

  test('placed then cancelled is not a purchase', () => {
    expect(failing([order('o1', [['p030', 1, 39.99]], { status: 'cancelled' })])).toContain('exactly one order placed (and not cancelled)')
  })

  test('the right order twice fails', () => {
    expect(failing([order('o1', [['p030', 1, 39.99]]), order('o2', [['p030', 1, 39.99]])])).toContain('exactly one order placed (and not cancelled)')
  })

  test('a corrected mistake passes only where the goal allows it', () => {
    const corrected = [order('o1', [['p032', 1, 169.99]], { status: 'cancelled' }), order('o2', [['p030', 1, 39.99]])]
    expect(failing(corrected)).toEqual(['no order placed and then cancelled'])
    expect(failing(corrected, { ...rule, corrections: 'allowed' })).toEqual([])
  })

  test('wrong product, quantity, route or price each fail their own check', () => {
    expect(failing([order('o1', [['p032', 1, 169.99]])])).toEqual(['the order holds 1 x one of [p028, p030]', 'each costs less than $60'])
    expect(failing([order('o1', [['p030', 2, 39.99]])])).toEqual(['the order holds 1 x one of [p028, p030]'])
    expect(failing([order('o1', [['p030', 1, 39.99]], { source: 'cart' })])).toEqual(['bought with Buy Now'])
    expect(failing([order('o1', [['p030', 1, 39.99], ['p028', 1, 29.99]])])).toEqual(['the order holds 1 x one of [p028, p030]'])
  })

  test('a total over a set: two units, of one product when the goal says "the same"', () => {
    const total: PurchaseRule = { items: { from: ['p055', 'p056'], quantity: 2, products: 'one' } }
    expect(failing([order('o1', [['p056', 2, 199]])], total)).toEqual([])
    expect(failing([order('o1', [['p056', 1, 199], ['p055', 1, 299]])], total)).toEqual(['all of one product'])
    expect(failing([order('o1', [['p056', 3, 199]])], total)).toEqual(['2 unit(s) in all'])
  })
})
