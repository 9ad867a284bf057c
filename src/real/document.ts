import type { CartLine, Order, OmnizonFinish } from '../schema/omnizon.ts'

/**
 * REAL's Omnizon `/finish` JSON, built from agentest's: the paths of src/real/layout.ts, filled
 * with the same facts. REAL's queries run on this unchanged.
 */
export type RealDocument = { [key: string]: unknown }

/**
 * Orders keep REAL's diff keys: "0" is the first order placed during the task. An order placed
 * and then cancelled within the task is not there: it was not bought.
 */
export function realDocument(finish: OmnizonFinish): RealDocument {
  const { initial, final } = finish
  const before = new Set(initial.orders.map((order) => order.id))
  const placed = final.orders.filter((order) => !before.has(order.id) && order.status === 'placed')
  const inCart = new Set(initial.cart.map((line) => line.product_id))
  const cartAdded = final.cart.flatMap((line, index) => (inCart.has(line.product_id) ? [] : [[String(index), realLine(line)] as const]))

  // A diff lists what changed: a part with nothing in it is left out, as REAL's is.
  const added: RealDocument = {}
  if (placed.length) added.order = { orders: keyed(placed.map(v2Order)) }
  if (cartAdded.length) added.cart = { cartDetails: Object.fromEntries(cartAdded) }
  const updated: RealDocument = {}
  const location: RealDocument = {}
  if (final.location.path !== initial.location.path) location.pathname = final.location.path
  if (final.location.search !== initial.location.search) location.search = final.location.search
  if (Object.keys(location).length) updated.router = { location }
  if (final.searches.length > initial.searches.length) updated.filter = { searchQuery: final.searches.at(-1) }

  return {
    orderDetailsDiff: { added: keyed(placed.map((order) => ({ order: v1Order(order) }))) },
    initialfinaldiff: { added, updated },
  }
}

function keyed<T>(entries: T[]): Record<string, T> {
  return Object.fromEntries(entries.map((entry, index) => [String(index), entry]))
}

function realLine(line: CartLine): RealDocument {
  return { id: line.product_id, quantity: line.quantity, price: line.unit_price }
}

/** v1's order: card fields are strings as the shopper typed them, the number in groups of four. */
function v1Order(order: Order): RealDocument {
  return {
    cart: order.items.map(realLine),
    selected_card: {
      cardName: order.card.holder,
      cardNumber: order.card.number.replace(/(\d{4})(?=\d)/g, '$1 '),
      month: String(order.card.exp_month),
      year: String(order.card.exp_year),
      security_code: order.card.cvc,
    },
    selected_delivery: order.delivery.label,
  }
}

function v2Order(order: Order): RealDocument {
  return { items: order.items.map(realLine), total: order.total, orderNumber: order.id }
}
