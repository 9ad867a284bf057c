import { agentTest, expectPurchase } from 'agentest'
import { buySeparately, buyTogether, type BasketItem } from './support-shopping.ts'

// 40-inch desks: the Office Furniture desks 40 inches wide: SHW 40-Inch $69.99 (p111), Coleshome
// 40 Inch $54.99 (p112) (the others are 48, 55 and 63 inches wide). Office chairs: every chair
// of Office Furniture, the only chairs in the catalog: Sweetcrispy (p116), Omnizon Basics (p117),
// Furmax (p118), HON Ignition (p119), Herman Miller Aeron (p120), and the GTRACING gaming chair
// (p121, sold as an "Ergonomic Office Chair").
const DESKS_40_INCH = ['p111', 'p112']
const OFFICE_CHAIRS = ['p116', 'p117', 'p118', 'p119', 'p120', 'p121']
const DESK: BasketItem = { search: '40 inch desk', product: 'p112' }
const CHAIR: BasketItem = { search: 'office chair', product: 'p116' }

const test = agentTest({
  id: 'omnizon-19',
  app: 'omnizon',
  goal: 'Furnish my home office: order a 40-inch desk and an office chair, together in one order.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 25,
  solution: ({ shop }) => buyTogether(shop, [DESK, CHAIR]),
  near_misses: {
    'wrong desk size': ({ shop }) => buyTogether(shop, [{ search: 'desk', product: 'p113' }, CHAIR]), // SHW 55-inch L-shaped desk
    'desk only': ({ shop }) => buyTogether(shop, [DESK]),
    'two chairs': ({ shop }) => buyTogether(shop, [DESK, { ...CHAIR, quantity: 2 }]),
    'two orders': ({ shop }) => buySeparately(shop, [DESK, CHAIR]),
  },
  alternatives: {
    'other products from the category': ({ shop }) =>
      buyTogether(shop, [
        { category: 'office-furniture', product: 'p111' },
        { category: 'office-furniture', product: 'p118' },
      ]),
  },
})

test('orders a 40-inch desk and an office chair together', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [
      { product: DESKS_40_INCH, quantity: 1 },
      { product: OFFICE_CHAIRS, quantity: 1 },
    ],
  })
})
