import { agentTest, expectPurchase, type Purchase, type SolutionContext } from 'agentest'

// Mesh office chairs under $100: the Office Furniture chairs with a mesh seat or back priced
// below $100: Sweetcrispy Ergonomic Mesh $79.99 (p116), Furmax Mid-Back Mesh $49.99 (p118).
// The other mesh chairs cost $339 (HON) and $1,395 (Aeron); the Omnizon Basics chair is bonded
// leather and the GTRACING chair PU leather.
const MESH_CHAIRS_UNDER_100 = ['p116', 'p118']
// The seeded Mastercard (card-2), as stored on the order; card-1 (the default) is a Visa.
const MASTERCARD = { id: 'card-2', number: '5555555555554444' }
const RIGHT: Purchase = { search: 'mesh office chair', product: 'p118' }

/** Buys `purchase`, paying with the saved card `cardId` (or the default card when null). */
async function buyPaying({ shop, ui }: SolutionContext, purchase: Purchase, cardId: string | null = MASTERCARD.id): Promise<void> {
  await shop.buy({ ...purchase, place: false })
  if (cardId) {
    await ui.click('#change-payment')
    await ui.click(`#card-radio-${cardId}`)
    await ui.click('#use-payment')
  }
  await shop.placeOrder()
}

const test = agentTest({
  id: 'omnizon-27',
  app: 'omnizon',
  goal: 'Buy a mesh office chair that costs under $100, and pay for it with my saved Mastercard instead of the default card.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 20,
  solution: (context) => buyPaying(context, RIGHT),
  near_misses: {
    'paid with visa': (context) => buyPaying(context, RIGHT, null),
    'leather chair': (context) => buyPaying(context, { ...RIGHT, search: 'office chair', product: 'p117' }), // Omnizon Basics bonded leather, $59.99
    'over budget': (context) => buyPaying(context, { ...RIGHT, product: 'p119' }), // HON Ignition 2.0, $339
  },
  alternatives: {
    'the other chair via the cart': (context) => buyPaying(context, { ...RIGHT, product: 'p116', route: 'cart' }),
  },
})

test('orders a mesh chair under $100 paid with the Mastercard', async ({ run, app, expect }) => {
  await run()
  const order = expectPurchase(expect, await app.finish(), {
    items: [{ product: MESH_CHAIRS_UNDER_100, quantity: 1 }],
    unitPrice: { below: 100 },
  })
  expect(order?.card.number, 'paid with the saved Mastercard').toBe(MASTERCARD.number)
})
