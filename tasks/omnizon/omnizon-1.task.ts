import { agentTest } from 'agentest'

const test = agentTest({
  id: 'omnizon-1',
  app: 'omnizon',
  goal: 'Search Omnizon for "laptop" and tell me the name of the first product in the results.',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  solution: async ({ shop, ui }) => {
    await shop.search('laptop')
    return `The first result is "${await ui.text('[data-testid="product-card"] [data-testid="product-link"]')}".`
  },
})

test('names the first search result for "laptop"', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.searches.map((s) => s.toLowerCase()), 'searched for laptop').toContain('laptop')
  expect(answer ?? '', 'names the MacBook Air, the first result').toMatch(/MacBook Air 13-inch/i)
})
