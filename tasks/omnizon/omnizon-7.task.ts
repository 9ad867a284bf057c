import { agentTest, expectAnswer, type SolutionContext } from 'agentest'
import { resultCards } from './support.ts'

/** Opens the gaming category, sorts it by price (highest first) and names the card at `rank`. */
const nameByPrice =
  ({ rank = 0, withPrice = true } = {}) =>
  async ({ shop, ui }: SolutionContext) => {
    await shop.openCategory('gaming')
    await ui.click('#sort-price-desc')
    const card = (await resultCards({ ui }))[rank]!
    return `The most expensive gaming product is the ${card.title}${withPrice ? ` at $${card.price}` : ''}.`
  }

const test = agentTest({
  id: 'omnizon-7',
  app: 'omnizon',
  goal: 'Go to the gaming category from the home page and tell me which product there is the most expensive, and its price.',
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: nameByPrice(),
  alternatives: {
    // Reads every card of both pages without sorting, then opens the winner to confirm its price (ends on the product page).
    'confirms on the product page': async ({ shop, ui }) => {
      await shop.openCategory('gaming')
      const cards = await resultCards({ ui })
      await ui.click('#page-next')
      cards.push(...(await resultCards({ ui })))
      const top = cards.sort((a, b) => Number(b.price) - Number(a.price))[0]!
      await shop.openProduct(top.id)
      return `${top.title.split(',')[0]}, $${Number(top.price).toLocaleString('en-US', { minimumFractionDigits: 2 })}`
    },
  },
  near_misses: {
    'second most expensive': nameByPrice({ rank: 1 }),
    'no price': nameByPrice({ withPrice: false }),
  },
})

test('finds the most expensive gaming product', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, {
    what: 'the Alienware m16 R2 and its price',
    names: ['Alienware m16 R2', 1799.99],
    // The runner-up (ASUS TUF Gaming A15, $949.99), the next ones down (PS5 Slim, DualSense Edge) and
    // the pricier products outside the category (MacBook Pro $1,999, Galaxy Z Fold6 $1,899.99).
    notNaming: ['TUF Gaming', 949.99, 'PlayStation 5 Console', 449.99, 'DualSense Edge', 199.99, 'MacBook Pro', 1999, 'Z Fold6', 1899.99],
  })
})
