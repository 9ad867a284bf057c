import { agentTest, expectAnswer, type SolutionContext } from 'agentest'
import { resultCards, unpaired } from './support.ts'

/** The Headphones category (12 products, one page) by model name, with its catalog price. */
const HEADPHONES = [
  { name: 'WH-1000XM5', value: 348 },
  { name: 'QuietComfort Ultra', value: 379 },
  { name: 'AirPods Pro', value: 189.99 },
  { name: 'Solo 4', value: 129.99 },
  { name: 'ATH-M50x', value: 149 },
  { name: 'HD 280 PRO', value: 99.95 },
  { name: 'Elite 4', value: 79.99 },
  { name: 'Hesh', value: 59.99 },
  { name: 'Q20i', value: 39.99 },
  { name: 'Tune 510BT', value: 29.95 },
  { name: 'MDR-ZX110', value: 19.99 },
  { name: 'ErgoFit', value: 9.99 },
]

/** Lists the cards on the page as "- title: $price" lines; `price` picks which price each line shows. */
const listCards =
  (open: (context: SolutionContext) => Promise<void>, price = (prices: string[], i: number) => prices[i]) =>
  async (context: SolutionContext) => {
    await open(context)
    const cards = await resultCards(context)
    const prices = cards.map((card) => card.price)
    return `The Headphones category has:\n${cards.map((card, i) => `- ${card.title}: $${price(prices, i) ?? ''}`).join('\n')}`
  }
const byCategory = ({ shop }: SolutionContext) => shop.openCategory('headphones')

const test = agentTest({
  id: 'omnizon-3',
  app: 'omnizon',
  goal: 'From the home page, open the Headphones category and list every product in it with its price.',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: listCards(byCategory),
  alternatives: {
    // The search "headphones" shows exactly the category's twelve products (its only department).
    'by search': listCards(async ({ shop }) => shop.search('headphones')),
    // Reads the list, then checks a price on a product page: the last page loaded is not the category.
    'confirms a price on its page': async (context) => {
      const answer = await listCards(byCategory)(context)
      await context.shop.openProduct('p038')
      return answer
    },
  },
  near_misses: {
    'no prices': listCards(byCategory, () => ''),
    'last product left out': async (context) => (await listCards(byCategory)(context)).split('\n').slice(0, -1).join('\n'),
    // Every name and every price, but each product given the next one's price.
    'prices shifted': listCards(byCategory, (prices, i) => prices[(i + 1) % prices.length]),
  },
})

test('lists the headphones category', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, {
    what: 'every product of the Headphones category',
    names: HEADPHONES.map((h) => h.name),
    // Audio products of other categories: the gaming headset and the speakers ("Soundcore 2" is a speaker, not the Q20i).
    notNaming: ['HyperX', 'Cloud II', 'Soundcore 2', 'Emberton', 'Flip 6', 'SoundLink', 'WONDERBOOM', 'SRS-XB100'],
  })
  // Deterministic pairing: each price after its own name (or before it, throughout), so the judge is not needed.
  expect(unpaired(answer, HEADPHONES), 'gives each product its own price').toEqual([])
})
