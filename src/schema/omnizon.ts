import { z } from 'zod'

/**
 * The Omnizon state contract, version 1. `/finish` answers with `OmnizonFinish`; task checks
 * read typed values from it. Money is in US dollars with two decimals. Dates are ISO strings
 * on the shop's fixed clock (see OMNIZON_NOW).
 */
export const OMNIZON_SCHEMA = 'omnizon.finish/v1'
/** The shop's fixed "now": every page, order and delivery date is computed from it. */
export const OMNIZON_NOW = '2025-07-14T10:00:00.000Z'
export const OMNIZON_MAX_QUANTITY = 30

export const Money = z.number().nonnegative()

export const Address = z.object({
  name: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
})
export type Address = z.infer<typeof Address>

/** A saved payment card. The full number is kept so checks can compare it exactly. */
export const Card = z.object({
  id: z.string(),
  holder: z.string(),
  number: z.string(),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int(),
  cvc: z.string(),
})
export type Card = z.infer<typeof Card>

export const CartLine = z.object({
  product_id: z.string(),
  title: z.string(),
  unit_price: Money,
  quantity: z.number().int().min(1).max(OMNIZON_MAX_QUANTITY),
})
export type CartLine = z.infer<typeof CartLine>

export const Delivery = z.object({
  /** ISO date, e.g. "2025-07-21". */
  date: z.string(),
  /** As shown to the shopper, e.g. "Monday, Jul 21". */
  label: z.string(),
})
export type Delivery = z.infer<typeof Delivery>

export const OrderStatus = z.enum(['placed', 'cancelled'])

export const Order = z.object({
  id: z.string(),
  placed_at: z.string(),
  status: OrderStatus,
  items: z.array(CartLine).min(1),
  subtotal: Money,
  shipping: Money,
  total: Money,
  card: Card,
  delivery: Delivery,
  shipping_address: Address,
  /** "buy_now" when the order came from a product's Buy Now button, else "cart". */
  source: z.enum(['cart', 'buy_now']),
})
export type Order = z.infer<typeof Order>

export const OmnizonState = z.object({
  cart: z.array(CartLine),
  orders: z.array(Order),
  cards: z.array(Card),
  selected_card_id: z.string().nullable(),
  address: Address,
  /** Every search submitted, in order, as typed. */
  searches: z.array(z.string()),
  /** Product pages opened, in order. */
  viewed_products: z.array(z.string()),
  /** The last page the shopper loaded: path and query string. */
  location: z.object({ path: z.string(), search: z.string() }),
  popup: z.object({ enabled: z.boolean(), dismissed: z.boolean() }),
})
export type OmnizonState = z.infer<typeof OmnizonState>

/** One difference between the initial and the final state; `path` is dotted with [index] for arrays. */
export const DiffEntry = z.object({
  op: z.enum(['added', 'removed', 'changed']),
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
})
export type DiffEntry = z.infer<typeof DiffEntry>

export const OmnizonFinish = z.object({
  schema: z.literal(OMNIZON_SCHEMA),
  task_id: z.string(),
  run_id: z.string(),
  initial: OmnizonState,
  final: OmnizonState,
  diff: z.array(DiffEntry),
})
export type OmnizonFinish = z.infer<typeof OmnizonFinish>

/** Query of `/config`: resets the session; `seed` names a seeded starting state. */
export const OmnizonConfigQuery = z.object({
  task_id: z.string().min(1),
  run_id: z.string().min(1),
  seed: z.string().optional(),
  remove_popup: z.enum(['true', 'false']).optional(),
})
export type OmnizonConfigQuery = z.infer<typeof OmnizonConfigQuery>
