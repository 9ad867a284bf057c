import { agentTest, expectAnswer, type SolutionContext } from 'agentest'
import { resultCards, searchedFor } from './support.ts'

/** Searches (or browses a category, against the goal) and names the product card at `position`. */
const nameResult =
  (how: { search?: string; category?: string }, position = 0) =>
  async ({ shop, ui }: SolutionContext) => {
    if (how.search !== undefined) await shop.search(how.search)
    else await shop.openCategory(how.category!)
    return `The first result is "${(await resultCards({ ui }))[position]!.title}".`
  }

const test = agentTest({
  id: 'omnizon-1',
  app: 'omnizon',
  goal: 'Search Omnizon for "laptop" and tell me the name of the first product in the results.',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  solution: nameResult({ search: 'laptop' }),
  alternatives: {
    // The shop reads " Laptops " as "laptop" (same results); the answer names the product in other words.
    'other wording': async ({ shop }) => {
      await shop.search(' Laptops ')
      return 'Apple’s MacBook Air (13″, M3 chip) comes first.'
    },
  },
  near_misses: {
    'second result': nameResult({ search: 'laptop' }, 1),
    // The Laptops category lists the MacBook Air first too, but the goal asks for a search.
    'category instead of search': nameResult({ category: 'laptops' }),
  },
})

test('names the first search result for "laptop"', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  // A search counts when the shop reads it as "laptop" (case, spaces and the plural folded).
  expect(searchedFor(shop.searches, 'laptop'), 'searched for laptop').toBe(true)
  expectAnswer(expect, answer, {
    what: 'the MacBook Air, the first result',
    names: 'MacBook Air',
    // The other laptops of the results (first page of the "laptop" search, then page 2).
    notNaming: ['MacBook Pro', 'IdeaPad', 'Chromebook', 'Aspire', 'Inspiron', 'Pavilion', 'Surface', 'Zenbook', 'ThinkPad', 'Galaxy Book4', 'Backpack', 'TUF Gaming', 'Alienware'],
  })
})
