import { agentTest, expectPurchase, type Purchase } from 'agentest'

// Gaming keyboards under $60: every keyboard in the catalog is a gaming keyboard (all in Gaming);
// those below $60 are Redragon K552 $29.99 (p028), Logitech G213 $49.99 (p029), Corsair K55
// $39.99 (p030), SteelSeries Apex 3 TKL $44.99 (p031). The Razer BlackWidow V4 (p032, $169.99)
// is the only keyboard above the limit.
const GAMING_KEYBOARDS_UNDER_60 = ['p028', 'p029', 'p030', 'p031']
const RIGHT: Purchase = { search: 'gaming keyboard', product: 'p030', route: 'cart' }

const test = agentTest({
  id: 'omnizon-12',
  app: 'omnizon',
  goal: 'I need a gaming keyboard for less than $60. Order one for me.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'over budget': ({ shop }) => shop.buy({ ...RIGHT, product: 'p032' }), // Razer BlackWidow V4, $169.99
    'gaming mouse': ({ shop }) => shop.buy({ ...RIGHT, search: 'gaming mouse', product: 'p033' }), // Logitech G502, $39.98
    'not ordered': ({ shop }) => shop.buy({ ...RIGHT, place: false }),
  },
  alternatives: {
    // The goal names no route: Buy Now is as right as the cart.
    'with buy now': ({ shop }) => shop.buy({ ...RIGHT, product: 'p028', route: 'buy_now' }),
  },
})

test('orders one gaming keyboard under $60', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [{ product: GAMING_KEYBOARDS_UNDER_60, quantity: 1 }],
    unitPrice: { below: 60 },
  })
})
