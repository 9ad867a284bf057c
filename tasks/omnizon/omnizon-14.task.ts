import { agentTest, expectPurchase, type Purchase } from 'agentest'

// Makeup kits under $40: the Beauty products sold as a kit of assorted makeup (the title says
// "Makeup Kit" and the specs list makeup) priced below $40: Maybelline Everyday $29.99 (p179),
// e.l.f. Beautifully Bare $24 (p180), Color Nymph All-in-One $19.99 (p181). Over the limit:
// Revlon ColorStay $44.99 (p182), MAC $75 (p183). No makeup, which the goal rules out: Real
// Techniques brush kit (p187), BEAKEY sponges (p190). Not kits but one kind of makeup: the
// Morphe and Urban Decay eyeshadow palettes, the NYX lip gloss 6-pack, the L'Oreal foundation.
const MAKEUP_KITS_UNDER_40 = ['p179', 'p180', 'p181']
const RIGHT: Purchase = { search: 'makeup kit', product: 'p179' }

const test = agentTest({
  id: 'omnizon-14',
  app: 'omnizon',
  goal: 'Order a makeup kit for under $40. It should be a set of actual makeup, not just brushes or sponges.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 15,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'brush kit': ({ shop }) => shop.buy({ ...RIGHT, product: 'p187' }), // Real Techniques brush kit, $18.99
    'over budget': ({ shop }) => shop.buy({ ...RIGHT, product: 'p182' }), // Revlon ColorStay kit, $44.99
  },
  alternatives: {
    'another kit from the category via the cart': ({ shop }) => shop.buy({ category: 'beauty', product: 'p180', route: 'cart' }),
  },
})

test('orders one makeup kit under $40', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [{ product: MAKEUP_KITS_UNDER_40, quantity: 1 }],
    unitPrice: { below: 40 },
  })
})
