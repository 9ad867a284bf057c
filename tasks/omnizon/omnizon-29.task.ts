import { agentTest, expectAnswer, expectNoPurchase } from 'agentest'

// The past-orders seed's most recent order is OZ-1003 (Jul 12): two Omnizon Basics neck pillows
// at $14.99 = $29.98, plus $5.99 shipping (under the $35 free-shipping line) = $35.97. The other
// orders are the candidates: OZ-1002 $70.98, OZ-1001 $52.94. An answer may show how the total is
// made ($14.99, $29.98, $5.99) but states no other amount: that is a hedge.
const OTHER_AMOUNT = /(?<![\d.])(?!(?:35\.97|29\.98|14\.99|5\.99)(?!\d))\d+\.\d\d(?!\d)/
const OTHER_ORDERS = ['OZ-1001', 'OZ-1002', 70.98, 52.94, OTHER_AMOUNT]

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
    'every order': async () => 'OZ-1003 cost $35.97, OZ-1002 cost $70.98 and OZ-1001 cost $52.94.',
  },
  alternatives: {
    'with its parts': async ({ ui }) => {
      await ui.click('#nav-orders')
      const total = await ui.text(ui.locator('[data-testid="order"]').first().locator('.order-head > div').nth(1).locator('b'))
      return `It came to ${total}: two neck pillows at $14.99 ($29.98) plus $5.99 shipping.`
    },
  },
})

test('reports the total of the most recent order', async ({ run, app, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { names: 35.97, notNaming: OTHER_ORDERS, what: 'the total of OZ-1003, $35.97' })
  const shop = await app.finish()
  expect(shop.cancelledOrders, 'cancels nothing').toHaveLength(0)
  expectNoPurchase(expect, shop)
})
