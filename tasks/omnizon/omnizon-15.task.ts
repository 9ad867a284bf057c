import { agentTest, expectPurchase, type Purchase } from 'agentest'

// Toys for a 3-year-old priced strictly between $15 and $50: products whose stated age range
// covers a 3-year-old (36 to 47 months old) and whose price is in range. Toys & Games: LEGO DUPLO
// (2+) $29.99 (p167), Melissa & Doug shape sorter (2+) $16.99 (p168), Fisher-Price farm (1 to 5)
// $34.99 (p169), Magna-Tiles (3+) $49.99 (p170), Green Toys dump truck (1+) $19.99 (p171),
// LeapFrog words book (18 months+) $17.99 (p175); and from Sports, the Franklin kids' balls pack
// ("Age: 3 years and up") $29.99 (p155).
// Out: the VTech walker (p172, "9 to 36 months"): its range ends at 36 months, the day a child
// turns 3, so it is meant for babies learning to walk and a 3-year-old has outgrown it. Play-Doh
// ($9.99, too cheap), Crayola (4+), LEGO Classic (4+, $59.99), Hot Wheels (5+), the tricycle
// ($89.99). The GoSports playground balls state no age, so they cannot be checked to suit him.
const TOYS_FOR_3_YEAR_OLD = ['p155', 'p167', 'p168', 'p169', 'p170', 'p171', 'p175']
const RIGHT: Purchase = { category: 'toys', product: 'p167' }

const test = agentTest({
  id: 'omnizon-15',
  app: 'omnizon',
  goal: 'Buy a toy for my 3-year-old nephew. Make sure it suits his age, and spend more than $15 but less than $50.',
  difficulty: 'medium',
  challenge_type: 'retrieval-action',
  max_steps: 20,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'too old': ({ shop }) => shop.buy({ ...RIGHT, product: 'p173' }), // Crayola art case, ages 4+, $24.99
    'outgrown': ({ shop }) => shop.buy({ ...RIGHT, product: 'p172' }), // VTech walker, 9 to 36 months, $36.99
    'too cheap': ({ shop }) => shop.buy({ ...RIGHT, product: 'p174' }), // Play-Doh 10-pack, ages 2+, $9.99
    'over budget': ({ shop }) => shop.buy({ ...RIGHT, product: 'p178' }), // Radio Flyer tricycle, ages 2.5 to 5, $89.99
  },
  alternatives: {
    'another toy by search': ({ shop }) => shop.buy({ search: 'magnetic tiles', product: 'p170' }),
  },
})

test('orders one age-appropriate toy between $15 and $50', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [{ product: TOYS_FOR_3_YEAR_OLD, quantity: 1 }],
    unitPrice: { above: 15, below: 50 },
  })
})
