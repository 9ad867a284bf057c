import { agentTest, expectPurchase, type SolutionContext } from 'agentest'

const SPEAKER = { search: 'Marshall Emberton II Portable Bluetooth Speaker', product: 'p061' }
const WATCH = { search: "Michael Kors Oversized Slim Runway Men's Watch", product: 'p133' }

/** Adds each product (found by its name) to the cart, then checks out with the cart. */
const checkOut =
  (...products: Array<{ search: string; product: string }>) =>
  async ({ shop }: SolutionContext) => {
    for (const { search, product } of products) {
      await shop.search(search)
      await shop.openProduct(product)
      await shop.addToCart()
    }
    await shop.proceedToCheckout()
    await shop.placeOrder()
  }

const test = agentTest({
  id: 'omnizon-4',
  app: 'omnizon',
  goal: 'Add the "Marshall Emberton II Portable Bluetooth Speaker" and the "Michael Kors Oversized Slim Runway Men\'s Watch" to the cart, then check out with both.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 30,
  solution: checkOut(SPEAKER, WATCH),
  alternatives: {
    'watch first': checkOut(WATCH, SPEAKER),
  },
  near_misses: {
    'only the speaker': checkOut(SPEAKER),
    // Another Marshall speaker (the Willen) beside the watch.
    'other speaker': checkOut({ search: 'Marshall speaker', product: 'p062' }, WATCH),
    'speaker twice': checkOut(SPEAKER, SPEAKER, WATCH),
  },
})

test('orders the speaker and the watch together', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: [
      { product: 'p061', quantity: 1 },
      { product: 'p133', quantity: 1 },
    ],
    route: 'cart',
  })
})
