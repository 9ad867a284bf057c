import { agentTest, expectPurchase, type Purchase } from 'agentest'

// Kids' sports-ball packs with a soccer ball, a basketball and a football: only Franklin Sports'
// 3-pack (p155). The GoSports pack (p156) holds six playground balls; the other balls (Wilson,
// Spalding, adidas...) are sold one at a time.
const FRANKLIN_3_PACK = 'p155'
const RIGHT: Purchase = { search: 'sports balls', product: FRANKLIN_3_PACK }

const test = agentTest({
  id: 'omnizon-22',
  app: 'omnizon',
  goal: "Order a pack of kids' sports balls that has a soccer ball, a basketball and a football in it.",
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'playground balls': ({ shop }) => shop.buy({ ...RIGHT, product: 'p156' }), // GoSports 6 playground balls
    'two packs': ({ shop }) => shop.buy({ ...RIGHT, quantity: 2 }),
    'not ordered': ({ shop }) => shop.buy({ ...RIGHT, place: false }),
  },
  alternatives: {
    'from the category via the cart': ({ shop }) => shop.buy({ category: 'sports', product: FRANKLIN_3_PACK, route: 'cart' }),
  },
})

test('orders the Franklin soccer, basketball and football pack', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), { items: [{ product: FRANKLIN_3_PACK, quantity: 1 }] })
})
