import { agentTest } from 'agentest'

// 40-inch desks: the Office Furniture desks 40 inches wide: SHW 40-Inch $69.99, Coleshome 40 Inch
// $54.99 (the others are 48, 55 and 63 inches). Office chairs: every chair of Office Furniture:
// Sweetcrispy, Omnizon Basics, Furmax, HON Ignition, Herman Miller Aeron, and the GTRACING gaming
// chair (sold as an "Ergonomic Office Chair").
const DESKS_40_INCH = ['p111', 'p112']
const OFFICE_CHAIRS = ['p116', 'p117', 'p118', 'p119', 'p120', 'p121']

const test = agentTest({
  id: 'omnizon-19',
  app: 'omnizon',
  goal: 'Furnish my home office: order a 40-inch desk and an office chair, together in one order.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 25,
  solution: async ({ shop }) => {
    await shop.search('40 inch desk')
    await shop.openProduct('p112')
    await shop.addToCart()
    await shop.search('office chair')
    await shop.openProduct('p116')
    await shop.addToCart()
    await shop.proceedToCheckout()
    await shop.placeOrder()
  },
  near_misses: {
    'wrong desk size': async ({ shop }) => {
      await shop.search('desk')
      await shop.openProduct('p113') // SHW 55-inch L-shaped desk
      await shop.addToCart()
      await shop.search('office chair')
      await shop.openProduct('p116')
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
    'desk only': async ({ shop }) => {
      await shop.search('40 inch desk')
      await shop.openProduct('p112')
      await shop.buyNow()
      await shop.placeOrder()
    },
    'two chairs': async ({ shop }) => {
      await shop.search('40 inch desk')
      await shop.openProduct('p112')
      await shop.addToCart()
      await shop.search('office chair')
      await shop.openProduct('p116')
      await shop.setQuantity(2)
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
  },
})

test('orders a 40-inch desk and an office chair together', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const ids = order?.items.map((line) => line.product_id) ?? []
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(order?.items.map((line) => line.quantity), 'two products, one of each').toEqual([1, 1])
  expect(ids.filter((id) => DESKS_40_INCH.includes(id)), 'one of them is a 40-inch desk').toHaveLength(1)
  expect(ids.filter((id) => OFFICE_CHAIRS.includes(id)), 'one of them is an office chair').toHaveLength(1)
})
