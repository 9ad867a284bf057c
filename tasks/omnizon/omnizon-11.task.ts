import { agentTest, OmnizonView } from 'agentest'

// Headphones priced strictly between $24 and $100: every product of the Headphones category in
// that range (p043 $99.95, p044 $79.99, p045 $59.99, p046 $39.99, p047 $29.95), plus the HyperX
// Cloud II gaming headset (p037, $79.99, filed under Gaming), which is a pair of headphones too.
const HEADPHONES_24_TO_100 = ['p037', 'p043', 'p044', 'p045', 'p046', 'p047']

const test = agentTest({
  id: 'omnizon-11',
  app: 'omnizon',
  goal: 'Buy me a pair of headphones that costs between $24 and $100.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: async ({ shop }) => {
    await shop.search('headphones')
    await shop.openProduct('p046')
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'too cheap': async ({ shop }) => {
      await shop.search('headphones')
      await shop.openProduct('p048') // $19.99
      await shop.buyNow()
      await shop.placeOrder()
    },
    'over budget': async ({ shop }) => {
      await shop.search('headphones')
      await shop.openProduct('p042') // $149
      await shop.buyNow()
      await shop.placeOrder()
    },
    'two pairs': async ({ shop }) => {
      await shop.search('headphones')
      await shop.openProduct('p046')
      await shop.setQuantity(2)
      await shop.buyNow()
      await shop.placeOrder()
    },
    'not ordered': async ({ shop }) => {
      await shop.search('headphones')
      await shop.openProduct('p046')
      await shop.addToCart()
    },
  },
})

test('orders one pair of headphones priced between $24 and $100', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(order).map((item) => item.quantity), 'one product, one pair of it').toEqual([1])
  expect(HEADPHONES_24_TO_100, 'the product is a pair of headphones in the price range').toContain(line?.product_id)
  expect(line?.unit_price, 'costs more than $24').toBeGreaterThan(24)
  expect(line?.unit_price, 'costs less than $100').toBeLessThan(100)
})
