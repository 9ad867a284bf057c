import { agentTest } from 'agentest'

const HEADPHONES = ['Sony WH-1000XM5', 'Bose QuietComfort Ultra', 'AirPods Pro', 'Beats Solo 4', 'ATH-M50x', 'HD 280 PRO', 'Jabra Elite 4', 'Skullcandy Hesh', 'Soundcore', 'JBL Tune 510BT', 'MDR-ZX110', 'ErgoFit']

const test = agentTest({
  id: 'omnizon-3',
  app: 'omnizon',
  goal: 'From the home page, open the Headphones category and list every product in it with its price.',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async ({ shop, ui }) => {
    await shop.openCategory('headphones')
    const cards = await ui.locator('[data-testid="product-card"]').all()
    const lines: string[] = []
    for (const card of cards) {
      const title = await card.locator('[data-testid="product-link"]').innerText()
      const price = await card.locator('[data-testid="price"]').getAttribute('data-price')
      lines.push(`- ${title.trim()}: $${price}`)
    }
    return `The Headphones category has:\n${lines.join('\n')}`
  },
})

test('lists the headphones category', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.query(({ final }) => final.location.path), 'ended in the Headphones category').toBe('/category/headphones')
  const named = HEADPHONES.filter((name) => (answer ?? '').toLowerCase().includes(name.toLowerCase()))
  expect(named, 'names every product of the category').toEqual(HEADPHONES)
})
