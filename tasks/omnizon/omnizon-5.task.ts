import { agentTest } from 'agentest'

const test = agentTest({
  id: 'omnizon-5',
  app: 'omnizon',
  goal: 'Find the "KTC 24 inch 1500R Curved Gaming Monitor" and tell me its screen size, resolution, refresh rate and response time.',
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async ({ shop, ui }) => {
    await shop.search('KTC 24 inch 1500R Curved Gaming Monitor')
    await shop.openProduct('p050')
    const rows = await ui.locator('table tr').allInnerTexts()
    return `KTC 24" curved monitor specs:\n${rows.map((r) => r.replace(/\s+/g, ' ').trim()).join('\n')}`
  },
})

test('reports the monitor specifications', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.final.viewed_products, 'opened the monitor').toContain('p050')
  const text = answer ?? ''
  expect(text, 'screen size').toMatch(/24[ -]?(inch|in\b|")/i)
  expect(text, 'resolution').toMatch(/1920\s*[x×]\s*1080/i)
  expect(text, 'refresh rate').toMatch(/165\s*Hz/i)
  expect(text, 'response time').toMatch(/1\s*ms/i)
})
