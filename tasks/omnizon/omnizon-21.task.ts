import { agentTest, expectPurchase, type Purchase } from 'agentest'
import { buyTogether } from './support-shopping.ts'

// PS5 controllers: the controllers made for PlayStation 5 (Gaming): DualSense White $69.99
// (p023), DualSense Cosmic Red $74.99 (p024), DualSense Edge $199.99 (p025). Not the Xbox (p026)
// or Switch Pro (p027) controllers. Two of one model or one each of two models both satisfy the
// goal. The goal allows correcting a mistake: a wrong order cancelled beside the right one passes.
const PS5_CONTROLLERS = ['p023', 'p024', 'p025']
const RIGHT: Purchase = { search: 'PS5 controller', product: 'p023', quantity: 2 }
const XBOX: Purchase = { ...RIGHT, product: 'p026' } // Xbox Wireless Controller

const test = agentTest({
  id: 'omnizon-21',
  app: 'omnizon',
  goal: 'Order two PS5 controllers for me. If you order something wrong by mistake, you may cancel it and order again.',
  difficulty: 'easy',
  challenge_type: 'action',
  // Room to correct a mistake: a wrong order, its cancellation and the right order.
  max_steps: 30,
  solution: ({ shop }) => shop.buy(RIGHT),
  near_misses: {
    'xbox controllers': ({ shop }) => shop.buy(XBOX),
    'one controller': ({ shop }) => shop.buy({ ...RIGHT, quantity: 1 }),
    // A mistake left standing: the wrong order is not cancelled.
    'mistake not cancelled': async ({ shop }) => {
      await shop.buy(XBOX)
      await shop.buy(RIGHT)
    },
  },
  alternatives: {
    'two different models': ({ shop }) =>
      buyTogether(shop, [
        { search: RIGHT.search, product: 'p023' },
        { search: RIGHT.search, product: 'p024' },
      ]),
    'corrects a mistake': async ({ shop, app }) => {
      await shop.buy(XBOX)
      await shop.openOrders()
      await shop.cancelOrder((await app.finish()).lastOrder!.id)
      await shop.buy(RIGHT)
    },
  },
})

test('orders two PS5 controllers', async ({ run, app, expect }) => {
  await run()
  expectPurchase(expect, await app.finish(), {
    items: { from: PS5_CONTROLLERS, quantity: 2 },
    corrections: 'allowed',
  })
})
