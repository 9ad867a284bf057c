import type { BrowserUi, OmnizonSteps } from 'agentest'

/** One product of a basket: how it is found (a search or a category), which one, how many. */
export interface BasketItem {
  search?: string
  category?: string
  product: string
  quantity?: number
}

/**
 * Several products in one order: each one found, opened and added to the cart, then one
 * checkout. `place: false` stops at checkout (a near miss that never buys).
 */
export async function buyTogether(shop: OmnizonSteps, items: readonly BasketItem[], { place = true } = {}): Promise<void> {
  for (const item of items) {
    if (item.search !== undefined) await shop.search(item.search)
    else if (item.category !== undefined) await shop.openCategory(item.category)
    await shop.openProduct(item.product)
    if ((item.quantity ?? 1) !== 1) await shop.setQuantity(item.quantity!)
    await shop.addToCart()
  }
  await shop.proceedToCheckout()
  if (place) await shop.placeOrder()
}

/** Each item bought on its own with Buy Now: one order per product (what "in one order" rules out). */
export async function buySeparately(shop: OmnizonSteps, items: readonly BasketItem[]): Promise<void> {
  for (const item of items) await shop.buy(item)
}

/** A value of the open product page's specs table, e.g. `await spec(ui, 'Pieces')`. */
export async function spec(ui: BrowserUi, name: string): Promise<string> {
  return ui.text(ui.locator('#specs tr').filter({ hasText: name }).locator('td'))
}
