import { agentTest, expectPurchase, type Purchase } from 'agentest'
import { buyTogether } from './support-shopping.ts'

// Portable speakers under $50: the Portable Speakers category below $50: Sony SRS-XB100 $48
// (p067), Anker Soundcore 2 $35.99 (p068), JBL Go 3 $29.95 (p069), Tribit XSound Go $27.99
// (p070), OontZ Angle 3 $24.99 (p071). The next cheapest, the UE WONDERBOOM 4 (p066), costs
// $79.99. Two of one model or two different models both satisfy the goal.
const SPEAKERS_UNDER_50 = ['p067', 'p068', 'p069', 'p070', 'p071']
const RIGHT: Purchase = { search: 'portable speaker', product: 'p069', quantity: 2 }

const test = agentTest({
  id: 'omnizon-16',
  app: 'omnizon',
  goal: 'Buy two portable Bluetooth speakers that cost less than $50 each, in a single order.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 20,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'one speaker': ({ shop }) => shop.buy({ ...RIGHT, quantity: 1 }),
    'three speakers': ({ shop }) => shop.buy({ ...RIGHT, quantity: 3 }),
    'over budget': ({ shop }) => shop.buy({ ...RIGHT, product: 'p066' }), // UE WONDERBOOM 4, $79.99
  },
  alternatives: {
    'two different models': ({ shop }) =>
      buyTogether(shop, [
        { search: 'portable speaker', product: 'p069' },
        { search: 'portable speaker', product: 'p071' },
      ]),
  },
})

test('orders two speakers under $50 each', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: { from: SPEAKERS_UNDER_50, quantity: 2 },
    unitPrice: { below: 50 },
  })
})
