import { agentTest, OmnizonView } from 'agentest'

// Gaming keyboards under $60: every keyboard in the catalog (all in the Gaming category) below
// $60: Redragon K552 $29.99, Logitech G213 $49.99, Corsair K55 $39.99, SteelSeries Apex 3 $44.99.
// The Razer BlackWidow V4 (p032, $169.99) is the only keyboard above the limit.
const GAMING_KEYBOARDS_UNDER_60 = ['p028', 'p029', 'p030', 'p031']

const test = agentTest({
  id: 'omnizon-12',
  app: 'omnizon',
  goal: 'I need a gaming keyboard for less than $60. Order one for me.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: async ({ shop }) => {
    await shop.search('gaming keyboard')
    await shop.openProduct('p030')
    await shop.addToCart()
    await shop.proceedToCheckout()
    await shop.placeOrder()
  },
  near_misses: {
    'over budget': async ({ shop }) => {
      await shop.search('gaming keyboard')
      await shop.openProduct('p032') // Razer BlackWidow V4, $169.99
      await shop.buyNow()
      await shop.placeOrder()
    },
    'gaming mouse': async ({ shop }) => {
      await shop.search('gaming mouse')
      await shop.openProduct('p033') // Logitech G502, $39.98
      await shop.buyNow()
      await shop.placeOrder()
    },
    'not ordered': async ({ shop }) => {
      await shop.search('gaming keyboard')
      await shop.openProduct('p030')
      await shop.addToCart()
    },
  },
})

test('orders one gaming keyboard under $60', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(order).map((item) => item.quantity), 'one product, one of it').toEqual([1])
  expect(GAMING_KEYBOARDS_UNDER_60, 'the product is a gaming keyboard under $60').toContain(line?.product_id)
  expect(line?.unit_price, 'costs less than $60').toBeLessThan(60)
})
