import { agentTest } from 'agentest'

const test = agentTest({
  id: 'omnizon-7',
  app: 'omnizon',
  goal: 'Go to the gaming category from the home page and tell me which product there is the most expensive, and its price.',
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async ({ shop, ui }) => {
    await shop.openCategory('gaming')
    await ui.goto('/category/gaming?sort=price-desc')
    const title = await ui.text('[data-testid="product-card"] [data-testid="product-link"]')
    const price = await ui.locator('[data-testid="product-card"] [data-testid="price"]').first().getAttribute('data-price')
    return `The most expensive gaming product is the ${title} at $${price}.`
  },
})

test('finds the most expensive gaming product', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.path, 'browsed the gaming category').toBe('/category/gaming')
  expect(answer ?? '', 'names the Alienware m16 R2').toMatch(/Alienware m16 R2/i)
  expect(answer ?? '', 'gives its price').toMatch(/1,?799\.99/)
})
