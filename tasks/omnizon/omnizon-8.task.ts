import { agentTest, OmnizonView } from 'agentest'

const test = agentTest({
  id: 'omnizon-8',
  app: 'omnizon',
  goal: 'Search for "automatic espresso machine", open the cheapest one, set the quantity to 5, and buy them with "Buy Now".',
  difficulty: 'easy',
  challenge_type: 'retrieval-action',
  max_steps: 20,
  solution: async ({ shop }) => {
    await shop.search('automatic espresso machine')
    await shop.openProduct('p076')
    await shop.setQuantity(5)
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'wrong item': async ({ shop }) => {
      await shop.search('automatic espresso machine')
      await shop.openProduct('p075')
      await shop.setQuantity(5)
      await shop.buyNow()
      await shop.placeOrder()
    },
    'wrong quantity': async ({ shop }) => {
      await shop.search('automatic espresso machine')
      await shop.openProduct('p076')
      await shop.setQuantity(4)
      await shop.buyNow()
      await shop.placeOrder()
    },
    'not bought': async ({ shop }) => {
      await shop.search('automatic espresso machine')
      await shop.openProduct('p076')
      await shop.setQuantity(5)
      await shop.buyNow()
    },
  },
})

test('buys five of the cheapest automatic espresso machine', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(OmnizonView.items(shop.lastOrder), 'five Gevi machines, the cheapest').toEqual([{ id: 'p076', quantity: 5 }])
  expect(shop.lastOrder?.source, 'bought with Buy Now').toBe('buy_now')
})
