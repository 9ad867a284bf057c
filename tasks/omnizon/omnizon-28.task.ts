import { agentTest, expectNoPurchase, type SolutionContext } from 'agentest'

// The past-orders seed has three placed orders: OZ-1001 (Jul 7), OZ-1002 (Jul 10), OZ-1003 (Jul 12).
// "My last two orders" are the two most recent: OZ-1003 and OZ-1002.
const LAST_TWO = ['OZ-1003', 'OZ-1002']

/** Opens Your Orders and cancels these orders, in this order. */
async function cancel({ shop, ui }: SolutionContext, ids: readonly string[]): Promise<void> {
  await ui.click('#nav-orders')
  for (const id of ids) await shop.cancelOrder(id)
}

const test = agentTest({
  id: 'omnizon-28',
  app: 'omnizon',
  seed: 'past-orders',
  goal: 'Cancel my last two orders.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 15,
  solution: (context) => cancel(context, LAST_TWO),
  near_misses: {
    'oldest two': (context) => cancel(context, ['OZ-1001', 'OZ-1002']),
    'only the last': (context) => cancel(context, ['OZ-1003']),
    'all three': (context) => cancel(context, [...LAST_TWO, 'OZ-1001']),
  },
  alternatives: {
    'older one first': (context) => cancel(context, ['OZ-1002', 'OZ-1003']),
  },
})

test('cancels the two most recent orders and keeps the oldest', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const status = (id: string) => shop.final.orders.find((order) => order.id === id)?.status
  expect(shop.cancelledOrders.map((order) => order.id).sort(), 'exactly OZ-1002 and OZ-1003 are cancelled').toEqual(['OZ-1002', 'OZ-1003'])
  expect(status('OZ-1001'), 'the oldest order, OZ-1001, is still placed').toBe('placed')
  expectNoPurchase(expect, shop)
})
