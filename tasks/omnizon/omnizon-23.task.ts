import { agentTest } from 'agentest'

// Silverware sets by "Service for": HIWARE 48-piece 8, Mikasa Delfina 20-piece 4, Oneida
// Aptitude 45-piece 8, Lenox Portola 65-piece 12. The Lenox Portola serves the most people.

const test = agentTest({
  id: 'omnizon-23',
  app: 'omnizon',
  goal: 'Which silverware set on Omnizon serves the most people? Tell me its name and how many pieces it has.',
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async ({ shop, ui }) => {
    await shop.search('silverware set')
    await shop.openProduct('p110')
    const spec = (name: string) => ui.text(ui.locator('#specs tr').filter({ hasText: name }).locator('td'))
    const title = await ui.text('#product-title')
    return `The ${title} serves the most people (service for ${await spec('Service for')}); it has ${await spec('Pieces')} pieces.`
  },
  near_misses: {
    'wrong set': async () => 'The HIWARE 48-Piece Silverware Set serves 8 people and has 48 pieces.',
    'pieces missing': async () => 'The Lenox Portola Flatware Silverware Set serves the most people: 12.',
  },
})

test('names the silverware set serving the most people and its piece count', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  const text = answer ?? ''
  expect(text, 'names the Lenox Portola set').toMatch(/Lenox|Portola/i)
  expect(text, 'gives its 65 pieces').toMatch(/\b65\b/)
  expect(shop.newOrders, 'places no order').toHaveLength(0)
})
