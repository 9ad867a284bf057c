import { agentTest } from 'agentest'

// 27-inch monitors: the Monitors category's 27-inch screens: Samsung Odyssey G55C, Sceptre 27",
// LG 27UP850-W, BenQ EX2710Q, Dell U2723QE (the others are 23.8, 24 or 32 inches).
const MONITORS_27_INCH = ['p055', 'p056', 'p057', 'p058', 'p059']

const test = agentTest({
  id: 'omnizon-20',
  app: 'omnizon',
  goal: 'I am setting up a dual-screen desk: order two of the same 27-inch monitor.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 20,
  solution: async ({ shop }) => {
    await shop.search('27 inch monitor')
    await shop.openProduct('p056')
    await shop.setQuantity(2)
    await shop.addToCart()
    await shop.proceedToCheckout()
    await shop.placeOrder()
  },
  near_misses: {
    'one monitor': async ({ shop }) => {
      await shop.search('27 inch monitor')
      await shop.openProduct('p056')
      await shop.buyNow()
      await shop.placeOrder()
    },
    'two different monitors': async ({ shop }) => {
      await shop.search('27 inch monitor')
      await shop.openProduct('p056')
      await shop.addToCart()
      await shop.search('27 inch monitor')
      await shop.openProduct('p055')
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
    'wrong size': async ({ shop }) => {
      await shop.search('monitor')
      await shop.openProduct('p060') // Samsung Odyssey G5, 32 inch
      await shop.setQuantity(2)
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders two units of one 27-inch monitor', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(order?.items.map((l) => l.quantity), 'one product, two of it').toEqual([2])
  expect(MONITORS_27_INCH, 'the product is a 27-inch monitor').toContain(line?.product_id)
})
