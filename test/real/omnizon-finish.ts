import type { CartLine, Card, OmnizonFinish, OmnizonState, Order } from '../../fixtures/apps/omnizon/state.ts'

/** Hand-made `/finish` answers for the REAL mapping's tests (no shop running). */
const ADDRESS = { name: 'Jane Doe', street: '410 Terry Ave N', city: 'Seattle', state: 'WA', zip: '98109', country: 'United States' }
const CARD: Card = { id: 'card-1', holder: 'Jane Doe', number: '4111111111111111', exp_month: 8, exp_year: 2027, cvc: '123' }

export function line(product_id: string, quantity = 1, unit_price = 10): CartLine {
  return { product_id, title: `product ${product_id}`, unit_price, quantity }
}

export function order(id: string, items: CartLine[], overrides: Partial<Order> = {}): Order {
  const subtotal = items.reduce((sum, l) => sum + l.unit_price * l.quantity, 0)
  return {
    id,
    placed_at: '2025-07-14T10:00:00.000Z',
    status: 'placed',
    items,
    subtotal,
    shipping: 0,
    total: subtotal,
    card: CARD,
    delivery: { date: '2025-07-16', label: 'Wednesday, Jul 16' },
    shipping_address: ADDRESS,
    source: 'buy_now',
    ...overrides,
  }
}

export function state(overrides: Partial<OmnizonState> = {}): OmnizonState {
  return {
    cart: [],
    orders: [],
    cards: [CARD],
    selected_card_id: 'card-1',
    address: ADDRESS,
    searches: [],
    viewed_products: [],
    location: { path: '/', search: '' },
    popup: { enabled: false, dismissed: false },
    ...overrides,
  }
}

export function finish(final: Partial<OmnizonState>, initial: Partial<OmnizonState> = {}): OmnizonFinish {
  return { schema: 'omnizon.finish/v1', task_id: 't', run_id: 'r', initial: state(initial), final: state(final), diff: [] }
}
