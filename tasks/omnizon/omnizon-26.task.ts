import { agentTest, OmnizonView } from 'agentest'

// Women's jackets under $60: the Clothing & Jackets products for women below $60: Omnizon
// Essentials packable puffer $39.90 (p197) and Columbia Switchback III rain jacket $54.99 (p198).
// The Wantdo puffer (p196) costs $69.99; every other jacket is a men's jacket.
const WOMENS_JACKETS_UNDER_60 = ['p197', 'p198']
const FRIDAY = '2025-07-18'

const test = agentTest({
  id: 'omnizon-26',
  app: 'omnizon',
  goal: "Buy a women's jacket that costs less than $60, and have it delivered on Friday, July 18.",
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 20,
  solution: async ({ shop }) => {
    await shop.search("women's jacket")
    await shop.openProduct('p198')
    await shop.buyNow()
    await shop.chooseDelivery(FRIDAY)
    await shop.placeOrder()
  },
  near_misses: {
    'default delivery': async ({ shop }) => {
      await shop.search("women's jacket")
      await shop.openProduct('p198')
      await shop.buyNow()
      await shop.placeOrder()
    },
    'mens jacket': async ({ shop }) => {
      await shop.search('fleece jacket')
      await shop.openProduct('p192') // Columbia men's fleece, $45.99
      await shop.buyNow()
      await shop.chooseDelivery(FRIDAY)
      await shop.placeOrder()
    },
    'over budget': async ({ shop }) => {
      await shop.search("women's jacket")
      await shop.openProduct('p196') // Wantdo women's puffer, $69.99
      await shop.buyNow()
      await shop.chooseDelivery(FRIDAY)
      await shop.placeOrder()
    },
  },
})

test("orders a women's jacket under $60 for Friday delivery", async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(order).map((item) => item.quantity), 'one product, one of it').toEqual([1])
  expect(WOMENS_JACKETS_UNDER_60, "the product is a women's jacket under $60").toContain(line?.product_id)
  expect(line?.unit_price, 'costs less than $60').toBeLessThan(60)
  expect(order?.delivery.date, 'delivered on Friday, Jul 18').toBe(FRIDAY)
})
