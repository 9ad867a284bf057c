import { agentTest, OmnizonView } from 'agentest'

// Toys suitable for a 3-year-old priced strictly between $15 and $50: products whose age range
// includes 3 years and whose price is in range. Toys & Games: LEGO DUPLO (2+) $29.99, Melissa &
// Doug shape sorter (2+) $16.99, Fisher-Price farm (1 to 5) $34.99, Magna-Tiles (3+) $49.99,
// Green Toys dump truck (1+) $19.99, VTech walker (9 to 36 months) $36.99, LeapFrog words book
// (18 months+) $17.99; and the Franklin kids' balls pack (Sports, "Age: 3 years and up") $29.99.
// Out: Play-Doh ($9.99, too cheap), Crayola (4+), LEGO Classic (4+), Hot Wheels (5+), tricycle ($89.99).
const TOYS_FOR_3_YEAR_OLD = ['p155', 'p167', 'p168', 'p169', 'p170', 'p171', 'p172', 'p175']

const test = agentTest({
  id: 'omnizon-15',
  app: 'omnizon',
  goal: 'Buy a toy for my 3-year-old nephew. Make sure it suits his age, and spend more than $15 but less than $50.',
  difficulty: 'medium',
  challenge_type: 'retrieval-action',
  max_steps: 20,
  solution: async ({ shop }) => {
    await shop.openCategory('toys')
    await shop.openProduct('p167')
    await shop.buyNow()
    await shop.placeOrder()
  },
  near_misses: {
    'too old': async ({ shop }) => {
      await shop.openCategory('toys')
      await shop.openProduct('p173') // Crayola art case, ages 4+, $24.99
      await shop.buyNow()
      await shop.placeOrder()
    },
    'too cheap': async ({ shop }) => {
      await shop.openCategory('toys')
      await shop.openProduct('p174') // Play-Doh 10-pack, ages 2+, $9.99
      await shop.buyNow()
      await shop.placeOrder()
    },
    'over budget': async ({ shop }) => {
      await shop.openCategory('toys')
      await shop.openProduct('p178') // Radio Flyer tricycle, ages 2.5 to 5, $89.99
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders one age-appropriate toy between $15 and $50', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const line = order?.items[0]
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(order).map((item) => item.quantity), 'one product, one of it').toEqual([1])
  expect(TOYS_FOR_3_YEAR_OLD, 'the product is a toy for a 3-year-old in the price range').toContain(line?.product_id)
  expect(line?.unit_price, 'costs more than $15').toBeGreaterThan(15)
  expect(line?.unit_price, 'costs less than $50').toBeLessThan(50)
})
