import { agentTest } from 'agentest'

// The past-orders seed's most recent order is OZ-1003 (Jul 12): two Omnizon Basics neck pillows
// at $14.99 = $29.98, plus $5.99 shipping (under the $35 free-shipping line) = $35.97.
// The others: OZ-1002 $70.98, OZ-1001 $52.94.

const test = agentTest({
  id: 'omnizon-29',
  app: 'omnizon',
  seed: 'past-orders',
  goal: 'How much did my most recent Omnizon order cost in total?',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  solution: async ({ ui }) => {
    await ui.click('#nav-orders')
    const newest = ui.locator('[data-testid="order"]').first()
    const total = await ui.text(newest.locator('.order-head > div').nth(1).locator('b'))
    const id = await ui.text(newest.locator('h2 span'))
    return `Your most recent order, ${id}, cost ${total} in total.`
  },
  near_misses: {
    'subtotal only': async () => 'Your most recent order cost $29.98 (two neck pillows).',
    'oldest order': async () => 'Your most recent order cost $52.94.',
  },
})

test('reports the total of the most recent order', async ({ run, app, expect }) => {
  const { answer } = await run()
  const shop = await app.finish()
  expect(answer ?? '', 'gives the total of OZ-1003, $35.97').toMatch(/35\.97/)
  expect(shop.cancelledOrders, 'cancels nothing').toHaveLength(0)
  expect(shop.newOrders, 'places no order').toHaveLength(0)
})
