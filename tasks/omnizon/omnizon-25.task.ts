import { agentTest, expectAnswer, expectNoPurchase } from 'agentest'

// Air fryers by price (Kitchen Appliances, every air fryer in the catalog): Chefman TurboFry
// Touch 2-Quart $49.99 (p091), Dash Compact $54.99, COSORI Pro LE $89.99, Ninja AF101 $99.99,
// Instant Vortex Plus $109.99, Ninja Foodi DualZone $179.99. The other fryers and their prices
// are the candidates an answer must not name.
const OTHER_FRYERS = ['Dash Compact', 'COSORI', 'Ninja', 'Instant Vortex', 54.99, 89.99, 99.99, 109.99, 179.99]

const test = agentTest({
  id: 'omnizon-25',
  app: 'omnizon',
  goal: 'What is the cheapest air fryer on Omnizon, and what does it cost?',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  solution: async ({ shop, ui }) => {
    await shop.search('air fryer')
    await ui.click('#sort-price-asc')
    const card = ui.locator('[data-testid="product-card"]').first()
    const title = await ui.text(card.locator('[data-testid="product-link"]'))
    const price = await card.locator('[data-testid="price"]').getAttribute('data-price')
    return `The cheapest air fryer is the ${title} at $${price}.`
  },
  near_misses: {
    'wrong fryer': async () => 'The cheapest air fryer is the Dash Compact Air Fryer, 2 Qt, at $54.99.',
    'price missing': async () => 'The cheapest air fryer is the Chefman TurboFry Touch 2-Quart Air Fryer.',
    'two fryers': async () => 'The cheapest is the Chefman TurboFry Touch at $49.99, or the Dash Compact at $54.99.',
  },
  alternatives: {
    'from the product page in other words': async ({ shop, ui }) => {
      await shop.search('air fryer')
      await shop.openProduct('p091')
      return `Chefman's TurboFry Touch (2 qt) is the lowest-priced one: ${await ui.text('[data-testid="price"]')}.`
    },
  },
})

test('names the cheapest air fryer and its price', async ({ run, app, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { names: [/Chefman|TurboFry/i, 49.99], notNaming: OTHER_FRYERS, what: 'the Chefman TurboFry Touch at $49.99' })
  expectNoPurchase(expect, await app.finish())
})
