import { agentTest, expectPurchase, type Purchase } from 'agentest'

// The "automatic espresso machine" results: Gevi p076 $189.99 is the cheapest (then Mr. Coffee p075 $229.99).
const RIGHT: Purchase = { search: 'automatic espresso machine', product: 'p076', quantity: 5, route: 'buy_now' }

const test = agentTest({
  id: 'omnizon-8',
  app: 'omnizon',
  goal: 'Search for "automatic espresso machine", open the cheapest one, set the quantity to 5, and buy them with "Buy Now".',
  difficulty: 'easy',
  challenge_type: 'retrieval-action',
  max_steps: 20,
  solution: ({ shop }) => shop.buy(RIGHT),
  alternatives: {
    // Sorts the results by price with the page's control, then opens the first card.
    'sorted by price': async ({ shop, ui }) => {
      await shop.search(RIGHT.search!)
      await ui.click('#sort-price-asc')
      await shop.buy({ ...RIGHT, search: undefined })
    },
    // Finds the same machine in the Coffee category (cheaper machines there are not automatic espresso machines).
    'found through the category': ({ shop }) => shop.buy({ ...RIGHT, search: undefined, category: 'coffee' }),
  },
  near_misses: {
    'wrong item': ({ shop }) => shop.buy({ ...RIGHT, product: 'p075' }),
    'wrong quantity': ({ shop }) => shop.buy({ ...RIGHT, quantity: 4 }),
    'through the cart': ({ shop }) => shop.buy({ ...RIGHT, route: 'cart' }),
    'not bought': ({ shop }) => shop.buy({ ...RIGHT, place: false }),
  },
})

test('buys five of the cheapest automatic espresso machine', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), { items: [{ product: 'p076', quantity: 5 }], route: 'buy_now' })
})
