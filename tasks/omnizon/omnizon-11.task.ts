import { agentTest, expectPurchase, type Purchase } from 'agentest'

// Headphones priced strictly between $24 and $100: every product of the Headphones category in
// that range (p043 Sennheiser HD 280 PRO $99.95, p044 Jabra Elite 4 Active earbuds $79.99, p045
// Skullcandy Hesh $59.99, p046 Soundcore Q20i $39.99, p047 JBL Tune 510BT $29.95), plus the
// HyperX Cloud II gaming headset (p037, $79.99, filed under Gaming), which is a pair of headphones
// too. Out of range: Sony MDR-ZX110 $19.99, Panasonic ErgoFit $9.99, and $129.99 and up.
const HEADPHONES_24_TO_100 = ['p037', 'p043', 'p044', 'p045', 'p046', 'p047']
const RIGHT: Purchase = { search: 'headphones', product: 'p046' }

const test = agentTest({
  id: 'omnizon-11',
  app: 'omnizon',
  goal: 'Buy me a pair of headphones that costs between $24 and $100.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'too cheap': ({ shop }) => shop.buy({ ...RIGHT, product: 'p048' }), // Sony MDR-ZX110, $19.99
    'over budget': ({ shop }) => shop.buy({ ...RIGHT, product: 'p042' }), // Audio-Technica ATH-M50x, $149
    'two pairs': ({ shop }) => shop.buy({ ...RIGHT, quantity: 2 }),
    'not ordered': ({ shop }) => shop.buy({ ...RIGHT, place: false }),
  },
  alternatives: {
    'another pair from the category': ({ shop }) => shop.buy({ category: 'headphones', product: 'p047' }),
  },
})

test('orders one pair of headphones priced between $24 and $100', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [{ product: HEADPHONES_24_TO_100, quantity: 1 }],
    unitPrice: { above: 24, below: 100 },
  })
})
