import { agentTest } from 'agentest'

// Aprons: every apron in the catalog (Cookware & Dining): Hudson Durable Goods $14.99, Utopia
// Kitchen 2-pack $12.99, Le Creuset $32. Stovetop cooking pots (Cookware & Dining): Cuisinart
// 8-qt stockpot, Lodge 5-qt Dutch oven, Farberware 3-qt saucepot, IMUSA 12-qt stock pot. Not
// pots: the T-fal 12-piece set, the All-Clad fry pan, the electric Instant Pot.
const APRONS = ['p104', 'p105', 'p106']
const COOKING_POTS = ['p099', 'p100', 'p101', 'p102']

const test = agentTest({
  id: 'omnizon-18',
  app: 'omnizon',
  goal: 'Buy a kitchen apron and a cooking pot for the stove, both in the same order.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 25,
  solution: async ({ shop }) => {
    await shop.search('apron')
    await shop.openProduct('p104')
    await shop.addToCart()
    await shop.search('cooking pot')
    await shop.openProduct('p099')
    await shop.addToCart()
    await shop.proceedToCheckout()
    await shop.placeOrder()
  },
  near_misses: {
    'pan instead of pot': async ({ shop }) => {
      await shop.search('apron')
      await shop.openProduct('p104')
      await shop.addToCart()
      await shop.search('fry pan')
      await shop.openProduct('p103') // All-Clad fry pan
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
    'apron only': async ({ shop }) => {
      await shop.search('apron')
      await shop.openProduct('p104')
      await shop.buyNow()
      await shop.placeOrder()
    },
    'two orders': async ({ shop }) => {
      await shop.search('apron')
      await shop.openProduct('p104')
      await shop.buyNow()
      await shop.placeOrder()
      await shop.search('cooking pot')
      await shop.openProduct('p099')
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders an apron and a cooking pot together', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const ids = order?.items.map((line) => line.product_id) ?? []
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(order?.items.map((line) => line.quantity), 'two products, one of each').toEqual([1, 1])
  expect(ids.filter((id) => APRONS.includes(id)), 'one of them is an apron').toHaveLength(1)
  expect(ids.filter((id) => COOKING_POTS.includes(id)), 'one of them is a cooking pot').toHaveLength(1)
})
