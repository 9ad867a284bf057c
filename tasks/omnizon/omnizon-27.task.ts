import { agentTest, OmnizonView } from 'agentest'

// Mesh office chairs under $100: the Office Furniture chairs with a mesh seat or back priced
// below $100: Sweetcrispy Ergonomic Mesh $79.99 (p116), Furmax Mid-Back Mesh $49.99 (p118).
// The other mesh chairs cost $339 (HON) and $1,395 (Aeron); the Omnizon Basics chair is leather.
const MESH_CHAIRS_UNDER_100 = ['p116', 'p118']
// The seeded Mastercard (card-2), as stored on the order.
const MASTERCARD_NUMBER = '5555555555554444'

const test = agentTest({
  id: 'omnizon-27',
  app: 'omnizon',
  goal: 'Buy a mesh office chair that costs under $100, and pay for it with my saved Mastercard instead of the default card.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 20,
  solution: async ({ shop, ui }) => {
    await shop.search('mesh office chair')
    await shop.openProduct('p118')
    await shop.buyNow()
    await ui.click('#change-payment')
    await ui.click('#card-radio-card-2')
    await ui.click('#use-payment')
    await shop.placeOrder()
  },
  near_misses: {
    'paid with visa': async ({ shop }) => {
      await shop.search('mesh office chair')
      await shop.openProduct('p118')
      await shop.buyNow()
      await shop.placeOrder()
    },
    'leather chair': async ({ shop, ui }) => {
      await shop.search('office chair')
      await shop.openProduct('p117') // Omnizon Basics bonded leather, $59.99
      await shop.buyNow()
      await ui.click('#change-payment')
      await ui.click('#card-radio-card-2')
      await ui.click('#use-payment')
      await shop.placeOrder()
    },
    'over budget': async ({ shop, ui }) => {
      await shop.search('mesh office chair')
      await shop.openProduct('p119') // HON Ignition 2.0, $339
      await shop.buyNow()
      await ui.click('#change-payment')
      await ui.click('#card-radio-card-2')
      await ui.click('#use-payment')
      await shop.placeOrder()
    },
  },
})

test('orders a mesh chair under $100 paid with the Mastercard', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(order).map((item) => item.quantity), 'one product, one of it').toEqual([1])
  expect(MESH_CHAIRS_UNDER_100, 'the product is a mesh office chair under $100').toContain(line?.product_id)
  expect(line?.unit_price, 'costs less than $100').toBeLessThan(100)
  expect(order?.card.number, 'paid with the saved Mastercard').toBe(MASTERCARD_NUMBER)
})
