import { agentTest, OmnizonView } from 'agentest'

// Makeup kits under $40: the Beauty products that are kits of cosmetics (their title says
// "Makeup Kit") priced below $40: Maybelline Everyday $29.99, e.l.f. Beautifully Bare $24,
// Color Nymph All-in-One $19.99. Revlon ($44.99) and MAC ($75) kits are over the limit; the
// Real Techniques brush kit (p187) holds no makeup, which the goal rules out.
const MAKEUP_KITS_UNDER_40 = ['p179', 'p180', 'p181']

const test = agentTest({
  id: 'omnizon-14',
  app: 'omnizon',
  goal: 'Order a makeup kit for under $40. It should be a set of actual makeup, not just brushes or sponges.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 15,
  solution: async ({ shop }) => {
    await shop.search('makeup kit')
    await shop.openProduct('p179')
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'brush kit': async ({ shop }) => {
      await shop.search('makeup kit')
      await shop.openProduct('p187') // Real Techniques brush kit, $18.99
      await shop.buyNow()
      await shop.placeOrder()
    },
    'over budget': async ({ shop }) => {
      await shop.search('makeup kit')
      await shop.openProduct('p182') // Revlon ColorStay kit, $44.99
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders one makeup kit under $40', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(order).map((item) => item.quantity), 'one product, one of it').toEqual([1])
  expect(MAKEUP_KITS_UNDER_40, 'the product is a makeup kit under $40').toContain(line?.product_id)
  expect(line?.unit_price, 'costs less than $40').toBeLessThan(40)
})
