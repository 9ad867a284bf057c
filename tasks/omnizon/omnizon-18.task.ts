import { agentTest, expectPurchase } from 'agentest'
import { buySeparately, buyTogether, type BasketItem } from './support-shopping.ts'

// Aprons: every apron in the catalog (Cookware & Dining): Hudson Durable Goods $14.99 (p104),
// Utopia Kitchen 2-pack $12.99 (p105), Le Creuset $32 (p106). Stovetop cooking pots (Cookware &
// Dining): Cuisinart 8-qt stockpot (p099), Lodge 5-qt Dutch oven (p100), Farberware 3-qt saucepot
// (p101), IMUSA 12-qt stock pot (p102). Not a pot for the stove: the T-fal 12-piece set (a set),
// the All-Clad fry pan (a pan), the Instant Pot (p093, an electric pressure cooker).
const APRONS = ['p104', 'p105', 'p106']
const COOKING_POTS = ['p099', 'p100', 'p101', 'p102']
const APRON: BasketItem = { search: 'apron', product: 'p104' }
const POT: BasketItem = { search: 'cooking pot', product: 'p099' }

const test = agentTest({
  id: 'omnizon-18',
  app: 'omnizon',
  goal: 'Buy a kitchen apron and a cooking pot for the stove, both in the same order.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 25,
  solution: ({ shop }) => buyTogether(shop, [APRON, POT]),
  near_misses: {
    'pan instead of pot': ({ shop }) => buyTogether(shop, [APRON, { search: 'fry pan', product: 'p103' }]), // All-Clad fry pan
    'electric pot': ({ shop }) => buyTogether(shop, [APRON, { search: 'instant pot', product: 'p093' }]), // Instant Pot Duo
    'apron only': ({ shop }) => buyTogether(shop, [APRON]),
    'two orders': ({ shop }) => buySeparately(shop, [APRON, POT]),
  },
  alternatives: {
    'other products and the category': ({ shop }) =>
      buyTogether(shop, [
        { search: 'cooking apron', product: 'p106' },
        { category: 'cookware', product: 'p100' },
      ]),
  },
})

test('orders an apron and a cooking pot together', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [
      { product: APRONS, quantity: 1 },
      { product: COOKING_POTS, quantity: 1 },
    ],
  })
})
