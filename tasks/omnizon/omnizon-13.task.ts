import { agentTest, expectPurchase, type Purchase } from 'agentest'

// Coffee makers under $100: the Coffee & Espresso Machines category below $100, which leaves
// only drip, pod and French-press makers (the cheapest espresso machine, CASABREWS, is $119.99):
// Mr. Coffee 12-Cup $39.99 (p080), Ninja CE251 $69.99 (p081), Hamilton Beach FlexBrew $79.99
// (p082), Keurig K-Classic $89.99 (p083), Cuisinart DCC-3200 $99.95 (p084), Bodum Chambord
// French press coffee maker $39.95 (p086). Next up: Bonavita 8-Cup $149.99 (p085).
const COFFEE_MAKERS_UNDER_100 = ['p080', 'p081', 'p082', 'p083', 'p084', 'p086']
const RIGHT: Purchase = { search: 'coffee maker', product: 'p081', route: 'buy_now' }

const test = agentTest({
  id: 'omnizon-13',
  app: 'omnizon',
  goal: 'Get me a coffee maker that costs under $100. Use "Buy Now" rather than the cart.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 15,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'over budget': ({ shop }) => shop.buy({ ...RIGHT, product: 'p085' }), // Bonavita 8-Cup, $149.99
    // The goal names the route, so the route is checked.
    'through the cart': ({ shop }) => shop.buy({ ...RIGHT, route: 'cart' }),
    'not ordered': ({ shop }) => shop.buy({ ...RIGHT, place: false }),
  },
  alternatives: {
    'another maker from the category': ({ shop }) => shop.buy({ category: 'coffee', product: 'p080', route: 'buy_now' }),
  },
})

test('buys one coffee maker under $100 with Buy Now', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [{ product: COFFEE_MAKERS_UNDER_100, quantity: 1 }],
    route: 'buy_now',
    unitPrice: { below: 100 },
  })
})
