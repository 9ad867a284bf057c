import { agentTest } from 'agentest'

// Air fryers by price: Chefman TurboFry Touch 2-Quart $49.99 (p091), Dash Compact $54.99,
// COSORI Pro LE $89.99, Ninja AF101 $99.99, Instant Vortex Plus $109.99, Ninja Foodi DualZone $179.99.

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
  },
})

test('names the cheapest air fryer and its price', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  const text = answer ?? ''
  expect(text, 'names the Chefman TurboFry Touch').toMatch(/Chefman|TurboFry/i)
  expect(text, 'gives its price, $49.99').toMatch(/49\.99/)
  expect(shop.newOrders, 'places no order').toHaveLength(0)
})
