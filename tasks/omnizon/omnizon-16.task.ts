import { agentTest } from 'agentest'

// Portable speakers under $50: the Portable Speakers category below $50: Sony SRS-XB100 $48,
// Anker Soundcore 2 $35.99, JBL Go 3 $29.95, Tribit XSound Go $27.99, OontZ Angle 3 $24.99.
// The next cheapest, the UE WONDERBOOM 4, costs $79.99. Two of one model or two different
// models both satisfy the goal.
const SPEAKERS_UNDER_50 = ['p067', 'p068', 'p069', 'p070', 'p071']

const test = agentTest({
  id: 'omnizon-16',
  app: 'omnizon',
  goal: 'Buy two portable Bluetooth speakers that cost less than $50 each, in a single order.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 20,
  solution: async ({ shop }) => {
    await shop.search('portable speaker')
    await shop.openProduct('p069')
    await shop.setQuantity(2)
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'one speaker': async ({ shop }) => {
      await shop.search('portable speaker')
      await shop.openProduct('p069')
      await shop.buyNow()
      await shop.placeOrder()
    },
    'over budget': async ({ shop }) => {
      await shop.search('portable speaker')
      await shop.openProduct('p066') // UE WONDERBOOM 4, $79.99
      await shop.setQuantity(2)
      await shop.buyNow()
      await shop.placeOrder()
    },
    'three speakers': async ({ shop }) => {
      await shop.search('portable speaker')
      await shop.openProduct('p069')
      await shop.setQuantity(3)
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders two speakers under $50 each', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const lines = order?.items ?? []
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(lines.reduce((sum, line) => sum + line.quantity, 0), 'two speakers in all').toBe(2)
  expect(lines.length > 0 && lines.every((line) => SPEAKERS_UNDER_50.includes(line.product_id)), 'every product is a portable speaker under $50').toBe(true)
  expect(lines.length > 0 ? Math.max(...lines.map((line) => line.unit_price)) : undefined, 'each costs less than $50').toBeLessThan(50)
})
