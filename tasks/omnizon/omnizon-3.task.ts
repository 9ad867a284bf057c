import { agentTest, type SolutionContext } from 'agentest'

const HEADPHONES = ['Sony WH-1000XM5', 'Bose QuietComfort Ultra', 'AirPods Pro', 'Beats Solo 4', 'ATH-M50x', 'HD 280 PRO', 'Jabra Elite 4', 'Skullcandy Hesh', 'Soundcore', 'JBL Tune 510BT', 'MDR-ZX110', 'ErgoFit']

/** The category's cards as "title: $price" lines (or titles alone). */
async function listHeadphones({ shop, ui }: SolutionContext, withPrices: boolean): Promise<string[]> {
  await shop.openCategory('headphones')
  const lines: string[] = []
  for (const card of await ui.locator('[data-testid="product-card"]').all()) {
    const title = (await card.locator('[data-testid="product-link"]').innerText()).trim()
    const price = await card.locator('[data-testid="price"]').getAttribute('data-price')
    lines.push(withPrices ? `- ${title}: $${price}` : `- ${title}`)
  }
  return lines
}

const test = agentTest({
  id: 'omnizon-3',
  app: 'omnizon',
  goal: 'From the home page, open the Headphones category and list every product in it with its price.',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async (context) => `The Headphones category has:\n${(await listHeadphones(context, true)).join('\n')}`,
  near_misses: {
    // Every name is there, so only the judged rubric catches the missing prices.
    'no prices': async (context) => `The Headphones category has:\n${(await listHeadphones(context, false)).join('\n')}`,
  },
})

test('lists the headphones category', async ({ run, app, expect, judge }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(shop.query(({ final }) => final.location.path), 'ended in the Headphones category').toBe('/category/headphones')
  const named = HEADPHONES.filter((name) => (answer ?? '').toLowerCase().includes(name.toLowerCase()))
  expect(named, 'names every product of the category').toEqual(HEADPHONES)
  await expect(judge, 'gives each product its price').toPassRubric('lists the products of the Headphones category, each one with its price')
})
