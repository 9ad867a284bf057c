import { agentTest, expectPurchase, type Purchase } from 'agentest'
import { buyTogether } from './support-shopping.ts'

// 27-inch monitors: the Monitors category's 27-inch screens (spec "Screen size: 27 inches"):
// Samsung Odyssey G55C (p055), Sceptre 27" (p056), LG 27UP850-W (p057), BenQ EX2710Q (p058),
// Dell U2723QE (p059). The others are 23.8, 24 or 32 inches.
const MONITORS_27_INCH = ['p055', 'p056', 'p057', 'p058', 'p059']
const RIGHT: Purchase = { search: '27 inch monitor', product: 'p056', quantity: 2, route: 'cart' }

const test = agentTest({
  id: 'omnizon-20',
  app: 'omnizon',
  goal: 'I am setting up a dual-screen desk: order two of the same 27-inch monitor.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 20,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'one monitor': ({ shop }) => shop.buy({ ...RIGHT, quantity: 1 }),
    'wrong size': ({ shop }) => shop.buy({ ...RIGHT, search: 'monitor', product: 'p060' }), // Samsung Odyssey G5, 32 inch
    'two different monitors': ({ shop }) =>
      buyTogether(shop, [
        { search: RIGHT.search, product: 'p056' },
        { search: RIGHT.search, product: 'p055' },
      ]),
  },
  alternatives: {
    'another model with buy now': ({ shop }) => shop.buy({ ...RIGHT, product: 'p058', route: 'buy_now' }),
  },
})

test('orders two units of one 27-inch monitor', async ({ run, app, expect }) => {
  await run()
  // One line of two: "two of the same" monitor.
  expectPurchase(expect, await app.finish(), { items: [{ product: MONITORS_27_INCH, quantity: 2 }] })
})
