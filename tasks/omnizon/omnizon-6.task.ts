import { agentTest, expectAnswer, expectPurchase, type Purchase, type SolutionContext } from 'agentest'

const WHY =
  'I bought the Samsung Galaxy S24 Ultra: at $1,119.99 it costs $780 less than the Z Fold6 ($1,899.99) and has a better camera (200 MP vs 50 MP), a bigger battery (5000 vs 4400 mAh), more zoom (5x vs 3x) and a built-in S Pen.'
const RIGHT: Purchase = { search: 'Samsung Galaxy S24 Ultra', product: 'p001', route: 'buy_now' }

/** Looks at the Z Fold6's page, then buys one phone and explains. */
const compareAndBuy =
  (purchase: Purchase, answer = WHY) =>
  async ({ shop }: SolutionContext) => {
    await shop.search('Samsung Galaxy Z Fold6')
    await shop.openProduct('p002')
    await shop.buy(purchase)
    return answer
  }

const test = agentTest({
  id: 'omnizon-6',
  app: 'omnizon',
  goal: 'Compare the "Samsung Galaxy S24 Ultra" and the "Samsung Galaxy Z Fold6" and buy the one with better features for its price using "Buy Now". Explain your choice.',
  difficulty: 'hard',
  challenge_type: 'retrieval-action',
  max_steps: 25,
  solution: compareAndBuy(RIGHT),
  alternatives: {
    // Compares on the results list (both phones, their prices and ratings) and opens only the one it buys.
    'compared from the results list': async ({ shop }) => {
      await shop.buy({ ...RIGHT, search: 'Samsung Galaxy' })
      return 'Bought the Galaxy S24 Ultra. It is $1,119.99 against $1,899.99 for the Galaxy Z Fold6, and it is rated higher (4.6 vs 4.3 stars): more phone for the money.'
    },
  },
  near_misses: {
    'no explanation': compareAndBuy(RIGHT, 'I bought the Samsung Galaxy S24 Ultra.'),
    'bought the fold': compareAndBuy(
      { ...RIGHT, search: 'Samsung Galaxy Z Fold6', product: 'p002' },
      'I bought the Samsung Galaxy Z Fold6: its 7.6-inch foldable screen is worth the $1,899.99 price.',
    ),
    'through the cart': compareAndBuy({ ...RIGHT, route: 'cart' }),
  },
})

test('buys the better-value phone and explains why', async ({ run, app, expect, judge }) => {
  const { answer } = await run()
  expectPurchase(expect, await app.finish(), { items: [{ product: 'p001', quantity: 1 }], route: 'buy_now' })
  // The explanation names both phones, so only the other smartphones are candidates it must not name.
  expectAnswer(expect, answer, {
    what: 'the S24 Ultra, the phone it chose',
    names: 'S24 Ultra',
    notNaming: ['iPhone', 'Pixel', 'OnePlus', 'Galaxy A54', 'Moto G', 'Nothing Phone'],
  })
  expect(
    /\$?\s?1,?119\.99|\$?\s?1,?899\.99|cheaper|less expensive|costs? less|lower price|\d+\s*MP|mAh|S Pen|zoom|camera|battery/i.test(answer ?? ''),
    'gives a reason from the listings (a price or a feature)',
  ).toBe(true)
  await expect(judge, 'explains the choice').toPassRubric(
    'explains the choice of the Galaxy S24 Ultra over the Z Fold6 with true facts from the listings: it costs less ($1,119.99 against $1,899.99) and has as good or better features for its price (200 MP vs 50 MP camera, 5000 vs 4400 mAh battery, 5x vs 3x optical zoom, built-in S Pen, higher rating 4.6 vs 4.3); it states no wrong price or spec',
  )
})
