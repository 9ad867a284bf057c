import { agentTest, OmnizonView } from 'agentest'

const test = agentTest({
  id: 'omnizon-22',
  app: 'omnizon',
  goal: "Order a pack of kids' sports balls that has a soccer ball, a basketball and a football in it.",
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: async ({ shop }) => {
    await shop.search('sports balls')
    await shop.openProduct('p155')
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'playground balls': async ({ shop }) => {
      await shop.search('sports balls')
      await shop.openProduct('p156') // GoSports 6 playground balls
      await shop.buyNow()
      await shop.placeOrder()
    },
    'not ordered': async ({ shop }) => {
      await shop.search('sports balls')
      await shop.openProduct('p155')
      await shop.addToCart()
    },
  },
})

test('orders the Franklin soccer, basketball and football pack', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(shop.lastOrder?.status, 'the order is placed').toBe('placed')
  // The only pack with those three balls is Franklin Sports' 3-pack (p155).
  expect(OmnizonView.items(shop.lastOrder), 'one Franklin Sports 3-ball pack').toEqual([{ id: 'p155', quantity: 1 }])
})
