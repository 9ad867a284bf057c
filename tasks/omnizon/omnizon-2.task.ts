import { agentTest, OmnizonView } from 'agentest'

const test = agentTest({
  id: 'omnizon-2',
  app: 'omnizon',
  goal: 'Search for "smartphone", add the first three results to the cart, and check out with them.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 30,
  solution: async ({ shop }) => {
    await shop.search('smartphone')
    for (const id of ['p001', 'p003', 'p006']) {
      await shop.openProduct(id)
      await shop.addToCart()
      await shop.search('smartphone')
    }
    await shop.openCart()
    await shop.proceedToCheckout()
    await shop.placeOrder()
  },
})

test('orders the first three smartphone results, one of each', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(OmnizonView.items(shop.lastOrder), 'the first three results, one each').toEqual([
    { id: 'p001', quantity: 1 },
    { id: 'p003', quantity: 1 },
    { id: 'p006', quantity: 1 },
  ])
  expect(shop.lastOrder?.source, 'checked out from the cart').toBe('cart')
})
