import { agentTest, OmnizonView } from 'agentest'

// Queen bed frames by "Under-bed clearance": Zinus Shawn (p122) 13 in, Omnizon Basics foldable
// (p123) 12.5 in, Novilla (p124) 7 in, Allewie (p125) 10 in. The Zinus Suzanne (p127) also has
// 13 in but is a Full, and the DHP (p126) is a King.
const MOST_CLEARANCE_QUEEN = 'p122'

const test = agentTest({
  id: 'omnizon-24',
  app: 'omnizon',
  goal: 'Order the queen-size bed frame with the most under-bed clearance, and tell me how much clearance it has.',
  difficulty: 'hard',
  challenge_type: 'retrieval-action',
  max_steps: 25,
  solution: async ({ shop, ui }) => {
    await shop.search('queen bed frame')
    await shop.openProduct(MOST_CLEARANCE_QUEEN)
    const clearance = await ui.text(ui.locator('#specs tr').filter({ hasText: 'Under-bed clearance' }).locator('td'))
    const title = await ui.text('#product-title')
    await shop.buyNow()
    await shop.placeOrder()
    return `I ordered the ${title}; it has ${clearance} of under-bed clearance, the most of the queen frames.`
  },
  near_misses: {
    'less clearance': async ({ shop }) => {
      await shop.search('queen bed frame')
      await shop.openProduct('p123') // 12.5 inches
      await shop.buyNow()
      await shop.placeOrder()
      return 'I ordered the Omnizon Basics Foldable Metal Platform Bed Frame; it has 12.5 inches of clearance.'
    },
    'full size frame': async ({ shop }) => {
      await shop.search('platform bed frame full')
      await shop.openProduct('p127') // Zinus Suzanne, Full, 13 inches
      await shop.buyNow()
      await shop.placeOrder()
      return 'I ordered the Zinus Suzanne Platform Bed Frame; it has 13 inches of clearance.'
    },
    'no answer': async ({ shop }) => {
      await shop.search('queen bed frame')
      await shop.openProduct(MOST_CLEARANCE_QUEEN)
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders the Zinus Shawn queen frame and reports its 13-inch clearance', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(shop.lastOrder?.status, 'the order is placed').toBe('placed')
  expect(OmnizonView.items(shop.lastOrder), 'one Zinus Shawn queen frame').toEqual([{ id: MOST_CLEARANCE_QUEEN, quantity: 1 }])
  expect(answer ?? '', 'reports 13 inches of clearance').toMatch(/\b13(\.0)?\s*(-?\s*inch|in\b|")/i)
})
