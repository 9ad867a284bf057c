import { z } from 'zod'
import { InputError } from '../errors/input-error.ts'
import type { BrowserUi } from './browser-ui.ts'

/** A card typed into checkout's "Add a new card" form, as the goal states it. */
export interface NewCard {
  /** Name on the card, e.g. "Jack Fulton". */
  holder: string
  /** As the goal writes it; spaces allowed ("9231 3432 8927 7764"). */
  number: string
  /** Expiry month and year as typed ("1", "2029"). */
  month: string
  year: string
  cvc: string
}

// A mistyped date would otherwise wait for a radio button that is not there.
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date, e.g. "2025-07-21"')
const CardId = z.string().regex(/^card-\d+$/, 'a saved card\'s id, e.g. "card-2"')

/** One purchase, as most shopping solutions and their near misses make it. */
export interface Purchase {
  /** How the product is found: a search, or a category from the home page. */
  search?: string
  category?: string
  product: string
  /** Units to buy; 1 when omitted. */
  quantity?: number
  /** Buy Now (the default) or through the cart. */
  route?: 'buy_now' | 'cart'
  /** A new card to pay with, or a saved card's id ("card-2"), and a delivery date (ISO), if the goal asks for them. */
  card?: NewCard | string
  delivery?: string
  /** Stop before placing the order (a near miss that never buys). */
  place?: boolean
}

/**
 * Omnizon's common moves for reference solutions, each made of recorded Computer steps (clicks,
 * keys, typing) found through the shop's labelled controls.
 */
export class OmnizonSteps {
  constructor(private readonly ui: BrowserUi) {}

  async search(query: string): Promise<void> {
    await this.ui.fill('#search-input', query)
    await this.ui.press('Enter')
  }

  async openProduct(id: string): Promise<void> {
    await this.ui.click(`#product-link-${id}`)
  }

  async openCategory(slug: string): Promise<void> {
    await this.ui.click(`a[href="/category/${slug}"]`)
  }

  /** Picks a quantity in the product page's dropdown by typing it, as a keyboard user would. */
  async setQuantity(quantity: number, button = '#qty-button'): Promise<void> {
    await this.ui.click(button)
    await this.ui.computer.type(String(quantity))
    await this.ui.press('Enter')
  }

  async addToCart(): Promise<void> {
    await this.ui.click('#add-to-cart')
  }

  async buyNow(): Promise<void> {
    await this.ui.click('#buy-now')
  }

  async openCart(): Promise<void> {
    await this.ui.click('#nav-cart')
  }

  async proceedToCheckout(): Promise<void> {
    await this.ui.click('#proceed-to-checkout')
  }

  /** On checkout: "Change" payment, fill the new-card form and submit it. */
  async addCard(card: NewCard): Promise<void> {
    await this.ui.click('#change-payment')
    await this.ui.fill('#card-holder', card.holder)
    await this.ui.fill('#card-number', card.number)
    await this.ui.fill('#card-exp-month', card.month)
    await this.ui.fill('#card-exp-year', card.year)
    await this.ui.fill('#card-cvc', card.cvc)
    await this.ui.click('#add-card-submit')
  }

  /** On checkout: "Change" payment, pick a saved card by id ("card-2" is the seeded Mastercard) and use it. */
  async chooseCard(cardId: string): Promise<void> {
    const id = valid(CardId, cardId, 'chooseCard')
    await this.ui.click('#change-payment')
    await this.ui.click(`#card-radio-${id}`)
    await this.ui.click('#use-payment')
  }

  /** On checkout: choose a delivery date by its ISO date, e.g. "2025-07-21" (Jul 16-18 and 21, 2025). */
  async chooseDelivery(date: string): Promise<void> {
    await this.ui.click(`#delivery-${valid(IsoDate, date, 'chooseDelivery')}`)
  }

  async placeOrder(): Promise<void> {
    await this.ui.click('#place-order')
  }

  async openOrders(): Promise<void> {
    await this.ui.goto('/orders')
  }

  async cancelOrder(orderId: string): Promise<void> {
    await this.ui.click(`#cancel-${orderId}`)
  }

  /** The open product page's price in dollars (looks only). */
  async price(): Promise<number> {
    return this.ui.price('#product-price')
  }

  /** The open product page's specifications table: `{ Brand, <each spec>, Price, 'Item ID' }` (looks only). */
  async specs(): Promise<Record<string, string>> {
    return this.ui.table('#specs')
  }

  /**
   * A whole purchase in one call: find, open, quantity, Buy Now or cart, card, delivery, place.
   * Solutions and near misses state what differs (`{ ...RIGHT, quantity: 4 }`) instead of repeating steps.
   */
  async buy(purchase: Purchase): Promise<void> {
    if (purchase.search !== undefined) await this.search(purchase.search)
    else if (purchase.category !== undefined) await this.openCategory(purchase.category)
    await this.openProduct(purchase.product)
    if ((purchase.quantity ?? 1) !== 1) await this.setQuantity(purchase.quantity!)
    if ((purchase.route ?? 'buy_now') === 'buy_now') {
      await this.buyNow()
    } else {
      await this.addToCart()
      await this.proceedToCheckout()
    }
    if (typeof purchase.card === 'string') await this.chooseCard(purchase.card)
    else if (purchase.card) await this.addCard(purchase.card)
    if (purchase.delivery) await this.chooseDelivery(purchase.delivery)
    if (purchase.place ?? true) await this.placeOrder()
  }
}

function valid(schema: z.ZodString, value: string, step: string): string {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw InputError.bare(`shop.${step}(${JSON.stringify(value)}): expected ${parsed.error.issues[0]?.message}`)
  return parsed.data
}
