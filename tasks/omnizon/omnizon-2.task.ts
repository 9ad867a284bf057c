import { agentTest, expectPurchase, type SolutionContext } from 'agentest'

/** The first three results of the "smartphone" search: Galaxy S24 Ultra, Galaxy S24, Pixel 8 Pro. */
const FIRST_THREE = ['p001', 'p003', 'p006']

/** Adds each product to the cart from its page (searching again for the next), then checks out. */
const checkOut =
  (ids: readonly string[]) =>
  async ({ shop }: SolutionContext) => {
    for (const id of ids) {
      await shop.search('smartphone')
      await shop.openProduct(id)
      await shop.addToCart()
    }
    await shop.proceedToCheckout()
    await shop.placeOrder()
  }

const test = agentTest({
  id: 'omnizon-2',
  app: 'omnizon',
  goal: 'Search for "smartphone", add the first three results to the cart, and check out with them.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 30,
  solution: checkOut(FIRST_THREE),
  alternatives: {
    // The results cards have their own "Add to cart" buttons; no product page is needed, in any order.
    'from the results list': async ({ shop, ui }) => {
      for (const id of ['p006', 'p001', 'p003']) {
        await shop.search('smartphone')
        await ui.click(`#add-to-cart-${id}`)
      }
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
  },
  near_misses: {
    'first two only': checkOut(['p001', 'p003']),
    'fourth instead of third': checkOut(['p001', 'p003', 'p007']),
    'first result twice': checkOut(['p001', 'p001', 'p003']),
  },
})

test('orders the first three smartphone results, one of each', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: FIRST_THREE.map((product) => ({ product, quantity: 1 })),
    route: 'cart',
  })
})
