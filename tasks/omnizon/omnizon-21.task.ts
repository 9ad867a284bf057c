import { agentTest } from 'agentest'

// PS5 controllers: the controllers made for PlayStation 5 (Gaming): DualSense White $69.99,
// DualSense Cosmic Red $74.99, DualSense Edge $199.99. Not the Xbox or Switch Pro controllers.
// Two of one model or one each of two models both satisfy the goal.
const PS5_CONTROLLERS = ['p023', 'p024', 'p025']

const test = agentTest({
  id: 'omnizon-21',
  app: 'omnizon',
  goal: 'Order two PS5 controllers for me.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: async ({ shop }) => {
    await shop.search('PS5 controller')
    await shop.openProduct('p023')
    await shop.setQuantity(2)
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'xbox controllers': async ({ shop }) => {
      await shop.search('PS5 controller')
      await shop.openProduct('p026') // Xbox Wireless Controller
      await shop.setQuantity(2)
      await shop.buyNow()
      await shop.placeOrder()
    },
    'one controller': async ({ shop }) => {
      await shop.search('PS5 controller')
      await shop.openProduct('p023')
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders two PS5 controllers', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const lines = order?.items ?? []
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(lines.reduce((sum, line) => sum + line.quantity, 0), 'two controllers in all').toBe(2)
  expect(lines.length > 0 && lines.every((line) => PS5_CONTROLLERS.includes(line.product_id)), 'every product is a PS5 controller').toBe(true)
})
