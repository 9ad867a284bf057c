import { agentTest, OmnizonView } from 'agentest'

// Coffee makers under $100: the Coffee & Espresso Machines category below $100, which leaves
// only drip, pod and French-press makers (no espresso machine costs under $100): Mr. Coffee
// 12-Cup $39.99, Ninja CE251 $69.99, Hamilton Beach FlexBrew $79.99, Keurig K-Classic $89.99,
// Cuisinart DCC-3200 $99.95, Bodum Chambord French press $39.95.
const COFFEE_MAKERS_UNDER_100 = ['p080', 'p081', 'p082', 'p083', 'p084', 'p086']

const test = agentTest({
  id: 'omnizon-13',
  app: 'omnizon',
  goal: 'Get me a coffee maker that costs under $100. Use "Buy Now" rather than the cart.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 15,
  solution: async ({ shop }) => {
    await shop.search('coffee maker')
    await shop.openProduct('p081')
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'over budget': async ({ shop }) => {
      await shop.search('coffee maker')
      await shop.openProduct('p085') // Bonavita 8-Cup, $149.99
      await shop.buyNow()
      await shop.placeOrder()
    },
    'through the cart': async ({ shop }) => {
      await shop.search('coffee maker')
      await shop.openProduct('p081')
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
    'not ordered': async ({ shop }) => {
      await shop.search('coffee maker')
      await shop.openProduct('p081')
      await shop.buyNow()
    },
  },
})

test('buys one coffee maker under $100 with Buy Now', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(order).map((item) => item.quantity), 'one product, one of it').toEqual([1])
  expect(COFFEE_MAKERS_UNDER_100, 'the product is a coffee maker under $100').toContain(line?.product_id)
  expect(line?.unit_price, 'costs less than $100').toBeLessThan(100)
  expect(order?.source, 'bought with Buy Now').toBe('buy_now')
})
