import type { ExpectStatic } from 'vitest'
import type { OmnizonView } from '../apps/omnizon.ts'
import type { Order } from '../schema/omnizon.ts'

/** One line the order must hold: a product (or any product of a set) and how many of it. */
export interface LineRule {
  product: string | readonly string[]
  quantity: number
}

/** Several lines that together must make up `quantity` units, every one from `from`. */
export interface TotalRule {
  from: readonly string[]
  quantity: number
  /** 'one' when the goal asks for N of the same product. */
  products?: 'one' | 'any'
}

export interface PurchaseRule {
  /** What the order holds, line by line (in any order), or as a total over a set. */
  items: readonly LineRule[] | TotalRule
  /** How it was bought, when the goal names the route; omit when either is right. */
  route?: 'buy_now' | 'cart'
  /**
   * Whether a cancelled order may stand beside the right one: 'allowed' when the goal lets the
   * shopper correct a mistake (say so in the goal), 'refused' by default.
   */
  corrections?: 'allowed' | 'refused'
  /** Each unit's price must lie strictly within these bounds (what the goal says about budget). */
  unitPrice?: { above?: number; below?: number }
}

/**
 * The rule most shopping tasks share, stated once: exactly one placed, uncancelled purchase of
 * the right products in the right quantities, by the route the goal names. Each part is its
 * own recorded check. Returns the placed order for any further checks (card, delivery).
 */
export function expectPurchase(expect: ExpectStatic, shop: OmnizonView, rule: PurchaseRule): Order | null {
  const placed = shop.newOrders.filter((order) => order.status === 'placed')
  const cancelled = shop.newOrders.filter((order) => order.status === 'cancelled')
  expect(placed.length, 'exactly one order placed (and not cancelled)').toBe(1)
  if ((rule.corrections ?? 'refused') === 'refused') expect(cancelled.map((o) => o.id), 'no order placed and then cancelled').toEqual([])
  const order = placed.length === 1 ? placed[0]! : null
  const lines = order?.items ?? []
  if (isTotal(rule.items)) {
    const { from, quantity, products = 'any' } = rule.items
    expect(lines.reduce((sum, line) => sum + line.quantity, 0), `${quantity} unit(s) in all`).toBe(quantity)
    expect(lines.filter((line) => !from.includes(line.product_id)).map((line) => line.product_id), 'every product is one the goal allows').toEqual([])
    expect(lines.length, 'the order has a product').toBeGreaterThan(0)
    if (products === 'one') expect(lines.length, 'all of one product').toBe(1)
  } else {
    // Compared as text so a failure shows what the order held instead of "false".
    const wanted = describeLines(rule.items)
    expect(matchesLines(order, rule.items) ? wanted : heldBy(order), `the order holds ${wanted}`).toBe(wanted)
  }
  if (rule.route) expect(order?.source, rule.route === 'buy_now' ? 'bought with Buy Now' : 'checked out from the cart').toBe(rule.route)
  const prices = lines.map((line) => line.unit_price)
  const { above, below } = rule.unitPrice ?? {}
  if (above !== undefined) expect(prices.length > 0 && prices.every((p) => p > above), `each costs more than $${above}`).toBe(true)
  if (below !== undefined) expect(prices.length > 0 && prices.every((p) => p < below), `each costs less than $${below}`).toBe(true)
  return order
}

/** Nothing was bought: no order placed during the task (cancelled ones count as placed here). */
export function expectNoPurchase(expect: ExpectStatic, shop: OmnizonView): void {
  expect(shop.newOrders.map((o) => o.id), 'no order placed').toEqual([])
}

function isTotal(items: PurchaseRule['items']): items is TotalRule {
  return !Array.isArray(items)
}

/** Every order line matches exactly one rule line and every rule line is used (small sets: backtracking). */
function matchesLines(order: Order | null, rules: readonly LineRule[]): boolean {
  if (!order || order.items.length !== rules.length) return false
  const fits = (rule: LineRule, productId: string, quantity: number) =>
    quantity === rule.quantity && (typeof rule.product === 'string' ? rule.product === productId : rule.product.includes(productId))
  const used = new Set<number>()
  const assign = (at: number): boolean => {
    if (at === order.items.length) return true
    const line = order.items[at]!
    for (const [index, rule] of rules.entries()) {
      if (used.has(index) || !fits(rule, line.product_id, line.quantity)) continue
      used.add(index)
      if (assign(at + 1)) return true
      used.delete(index)
    }
    return false
  }
  return assign(0)
}

function heldBy(order: Order | null): string {
  return order ? order.items.map((line) => `${line.quantity} x ${line.product_id}`).join(' + ') : 'no placed order'
}

function describeLines(rules: readonly LineRule[]): string {
  return rules
    .map((rule) => `${rule.quantity} x ${typeof rule.product === 'string' ? rule.product : `one of [${rule.product.join(', ')}]`}`)
    .join(' + ')
}
