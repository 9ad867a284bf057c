import { agentTest } from 'agentest'

// Travel neck pillows by customer rating: Cabeau Evolution S3 4.5 (p144), Mlvoc 4.4, BCOZZY 4.3,
// Omnizon Basics 4.3, Trtl 4.2, Travelrest 4.2, Samsonite inflatable 4.1. Cabeau is the single best.

const test = agentTest({
  id: 'omnizon-30',
  app: 'omnizon',
  goal: 'Which travel neck pillow has the best customer rating on Omnizon, and what is that rating?',
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async ({ shop, ui }) => {
    await shop.search('neck pillow')
    await ui.click('#sort-rating')
    const card = ui.locator('[data-testid="product-card"]').first()
    const title = await ui.text(card.locator('[data-testid="product-link"]'))
    const rating = await ui.text(card.locator('[data-testid="rating"] > span[aria-hidden="true"]'))
    return `The best-rated neck pillow is the ${title}, rated ${rating} out of 5.`
  },
  near_misses: {
    'wrong pillow': async () => 'The best-rated neck pillow is the Mlvoc Travel Pillow, rated 4.4 out of 5.',
    'rating missing': async () => 'The best-rated neck pillow is the Cabeau Evolution S3 Memory Foam Travel Neck Pillow.',
  },
})

test('names the best-rated neck pillow and its rating', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  const text = answer ?? ''
  expect(text, 'names the Cabeau Evolution S3').toMatch(/Cabeau|Evolution S3/i)
  expect(text, 'gives its rating, 4.5').toMatch(/\b4\.5\b/)
  expect(shop.newOrders, 'places no order').toHaveLength(0)
})
