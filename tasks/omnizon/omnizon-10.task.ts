import { agentTest } from 'agentest'

const test = agentTest({
  id: 'omnizon-10',
  app: 'omnizon',
  goal: 'Use "Buy Now" on any product with the largest quantity the shop allows, choose the last delivery date offered, and place the order.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 25,
  solution: async ({ shop }) => {
    await shop.search('neck pillow')
    await shop.openProduct('p144')
    await shop.setQuantity(30)
    await shop.buyNow()
    await shop.chooseDelivery('2025-07-21')
    await shop.placeOrder()
  },
  near_misses: {
    'first delivery date': async ({ shop }) => {
      await shop.search('neck pillow')
      await shop.openProduct('p144')
      await shop.setQuantity(30)
      await shop.buyNow()
      await shop.placeOrder()
    },
    'quantity 29': async ({ shop }) => {
      await shop.search('neck pillow')
      await shop.openProduct('p144')
      await shop.setQuantity(29)
      await shop.buyNow()
      await shop.chooseDelivery('2025-07-21')
      await shop.placeOrder()
    },
  },
})

test('orders the maximum quantity for the last delivery date', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.items.map((line) => line.quantity), 'one product, 30 of it').toEqual([30])
  expect(order?.source, 'bought with Buy Now').toBe('buy_now')
  expect(order?.delivery, 'the last delivery date').toEqual({ date: '2025-07-21', label: 'Monday, Jul 21' })
})
