import { agentTest, expectAnswer, expectNoPurchase } from 'agentest'

// Travel neck pillows by customer rating (Travel, every neck pillow in the catalog): Cabeau
// Evolution S3 4.5 (p144), Mlvoc 4.4, BCOZZY 4.3, Omnizon Basics 4.3, Trtl 4.2, Travelrest 4.2,
// Samsonite inflatable 4.1. Cabeau is the single best; the others and their ratings are the
// candidates an answer must not name.
const OTHER_PILLOWS = ['Mlvoc', 'BCOZZY', 'Omnizon Basics', 'Trtl', 'Travelrest', 'Samsonite', 4.4, 4.3, 4.2, 4.1]

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
    'top three': async () => 'Cabeau Evolution S3 (4.5), then Mlvoc (4.4) and BCOZZY (4.3).',
  },
  alternatives: {
    'in other words': async ({ shop, ui }) => {
      await shop.search('travel pillow')
      await ui.click('#sort-rating')
      const card = ui.locator('[data-testid="product-card"]').first()
      const title = await ui.text(card.locator('[data-testid="product-link"]'))
      const rating = await ui.text(card.locator('[data-testid="rating"] > span[aria-hidden="true"]'))
      return `${title.split(' ').slice(0, 3).join(' ')} — ${rating}/5 stars, the top-rated one.`
    },
  },
})

test('names the best-rated neck pillow and its rating', async ({ run, app, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { names: [/Cabeau|Evolution S3/i, 4.5], notNaming: OTHER_PILLOWS, what: 'the Cabeau Evolution S3, rated 4.5' })
  expectNoPurchase(expect, await app.finish())
})
