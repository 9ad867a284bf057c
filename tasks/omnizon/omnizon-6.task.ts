import { agentTest, OmnizonView } from 'agentest'

const test = agentTest({
  id: 'omnizon-6',
  app: 'omnizon',
  goal: 'Compare the "Samsung Galaxy S24 Ultra" and the "Samsung Galaxy Z Fold6" and buy the one with better features for its price using "Buy Now". Explain your choice.',
  difficulty: 'hard',
  challenge_type: 'retrieval-action',
  max_steps: 25,
  solution: async ({ shop }) => {
    await shop.search('Samsung Galaxy Z Fold6')
    await shop.openProduct('p002')
    await shop.search('Samsung Galaxy S24 Ultra')
    await shop.openProduct('p001')
    await shop.buyNow()
    await shop.placeOrder()
    return 'I bought the Samsung Galaxy S24 Ultra: at $1,119.99 it costs $780 less than the Z Fold6 ($1,899.99) and has a better camera (200 MP vs 50 MP), a bigger battery (5000 vs 4400 mAh), more zoom and a built-in S Pen.'
  },
  near_misses: {
    // The right phone, bought the right way, but no explanation: only the judged rubric catches it.
    'no explanation': async ({ shop }) => {
      await shop.search('Samsung Galaxy Z Fold6')
      await shop.openProduct('p002')
      await shop.search('Samsung Galaxy S24 Ultra')
      await shop.openProduct('p001')
      await shop.buyNow()
      await shop.placeOrder()
      return 'I bought the Samsung Galaxy S24 Ultra.'
    },
  },
})

test('buys the better-value phone and explains why', async ({ run, app, expect, judge }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.final.viewed_products, 'looked at both phones').toEqual(expect.arrayContaining(['p001', 'p002']))
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(OmnizonView.items(shop.lastOrder), 'one Galaxy S24 Ultra').toEqual([{ id: 'p001', quantity: 1 }])
  expect(shop.lastOrder?.source, 'bought with Buy Now').toBe('buy_now')
  expect(answer ?? '', 'the answer names the S24 Ultra').toMatch(/S24 Ultra/i)
  await expect(judge, 'explains the choice').toPassRubric('explains that the S24 Ultra is the better value: it costs less than the Z Fold6 and has the better camera')
})
