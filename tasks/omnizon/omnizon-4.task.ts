import { agentTest, OmnizonView } from 'agentest'

const test = agentTest({
  id: 'omnizon-4',
  app: 'omnizon',
  goal: 'Add the "Marshall Emberton II Portable Bluetooth Speaker" and the "Michael Kors Oversized Slim Runway Men\'s Watch" to the cart, then check out with both.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 30,
  solution: async ({ shop }) => {
    await shop.search('Marshall Emberton II Portable Bluetooth Speaker')
    await shop.openProduct('p061')
    await shop.addToCart()
    await shop.search("Michael Kors Oversized Slim Runway Men's Watch")
    await shop.openProduct('p133')
    await shop.addToCart()
    await shop.openCart()
    await shop.proceedToCheckout()
    await shop.placeOrder()
  },
  near_misses: {
    'only the speaker': async ({ shop }) => {
      await shop.search('Marshall Emberton II Portable Bluetooth Speaker')
      await shop.openProduct('p061')
      await shop.addToCart()
      await shop.openCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
  },
})

test('orders the speaker and the watch together', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(OmnizonView.items(shop.lastOrder), 'one speaker and one watch').toEqual([
    { id: 'p061', quantity: 1 },
    { id: 'p133', quantity: 1 },
  ])
})
