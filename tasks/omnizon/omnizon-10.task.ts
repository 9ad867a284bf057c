import { agentTest, expectPurchase, OMNIZON_MAX_QUANTITY, type Purchase } from 'agentest'
import { EVERY_PRODUCT } from './support.ts'

// The shop caps a line at 30 units; delivery is offered on business days from Wed Jul 16 to
// Mon Jul 21, 2025 (the shop's fixed clock is Mon Jul 14).
const MAX_QUANTITY = OMNIZON_MAX_QUANTITY
const LAST_DATE = '2025-07-21'
const RIGHT: Purchase = { search: 'neck pillow', product: 'p144', quantity: MAX_QUANTITY, route: 'buy_now', delivery: LAST_DATE }

const test = agentTest({
  id: 'omnizon-10',
  app: 'omnizon',
  goal: 'Use "Buy Now" on any product with the largest quantity the shop allows, choose the last delivery date offered, and place the order.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 25,
  solution: ({ shop }) => shop.buy(RIGHT),
  alternatives: {
    // Any product will do: another one, found through a category.
    'another product': ({ shop }) => shop.buy({ ...RIGHT, search: undefined, category: 'headphones', product: 'p048' }),
  },
  near_misses: {
    'first delivery date': ({ shop }) => shop.buy({ ...RIGHT, delivery: undefined }),
    'second-to-last date': ({ shop }) => shop.buy({ ...RIGHT, delivery: '2025-07-18' }),
    'quantity 29': ({ shop }) => shop.buy({ ...RIGHT, quantity: 29 }),
    'through the cart': ({ shop }) => shop.buy({ ...RIGHT, route: 'cart' }),
  },
})

test('orders the maximum quantity for the last delivery date', async ({ run, app, expect }) => {
  await run()
  const order = expectPurchase(expect, await app.finish(), { items: { from: EVERY_PRODUCT, quantity: MAX_QUANTITY, products: 'one' }, route: 'buy_now' })
  expect(order?.delivery.date, 'the last delivery date').toBe(LAST_DATE)
})
