import { agentTest, expectPurchase, type Purchase } from 'agentest'

// Women's jackets under $60: the Clothing & Jackets products for women below $60: Omnizon
// Essentials packable puffer $39.90 (p197) and Columbia Switchback III rain jacket $54.99 (p198).
// The Wantdo women's puffer (p196) costs $69.99; every other jacket is a men's jacket.
const WOMENS_JACKETS_UNDER_60 = ['p197', 'p198']
const FRIDAY = '2025-07-18'
const RIGHT: Purchase = { search: "women's jacket", product: 'p198', delivery: FRIDAY }

const test = agentTest({
  id: 'omnizon-26',
  app: 'omnizon',
  goal: "Buy a women's jacket that costs less than $60, and have it delivered on Friday, July 18.",
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 20,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'default delivery': ({ shop }) => shop.buy({ ...RIGHT, delivery: undefined }),
    'mens jacket': ({ shop }) => shop.buy({ ...RIGHT, search: 'fleece jacket', product: 'p192' }), // Columbia men's fleece, $45.99
    'over budget': ({ shop }) => shop.buy({ ...RIGHT, product: 'p196' }), // Wantdo women's puffer, $69.99
  },
  alternatives: {
    'the other jacket via the cart': ({ shop }) => shop.buy({ ...RIGHT, product: 'p197', route: 'cart' }),
  },
})

test("orders a women's jacket under $60 for Friday delivery", async ({ run, app, expect }) => {
  await run()
  const order = expectPurchase(expect, await app.finish(), {
    items: [{ product: WOMENS_JACKETS_UNDER_60, quantity: 1 }],
    unitPrice: { below: 60 },
  })
  expect(order?.delivery.date, 'delivered on Friday, Jul 18').toBe(FRIDAY)
})
