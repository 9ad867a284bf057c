import { agentTest, OmnizonView } from 'agentest'

const test = agentTest({
  id: 'omnizon-9',
  app: 'omnizon',
  goal: 'Search for "PlayStation DualSense", open the first result and buy it with "Buy Now", but first change the payment method to a new card: name Jack Fulton, number 9231 3432 8927 7764, expiry 1/2029, security code 128.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 30,
  solution: async ({ shop }) => {
    await shop.search('PlayStation DualSense')
    await shop.openProduct('p023')
    await shop.buyNow()
    await shop.addCard({ holder: 'Jack Fulton', number: '9231 3432 8927 7764', month: '1', year: '2029', cvc: '128' })
    await shop.placeOrder()
  },
  near_misses: {
    'default card': async ({ shop }) => {
      await shop.search('PlayStation DualSense')
      await shop.openProduct('p023')
      await shop.buyNow()
      await shop.placeOrder()
    },
    'mistyped card number': async ({ shop }) => {
      await shop.search('PlayStation DualSense')
      await shop.openProduct('p023')
      await shop.buyNow()
      await shop.addCard({ holder: 'Jack Fulton', number: '9231 3432 8927 7746', month: '1', year: '2029', cvc: '128' })
      await shop.placeOrder()
    },
  },
})

test('pays for the controller with the new card', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  expect(OmnizonView.items(order), 'one DualSense controller, the first result').toEqual([{ id: 'p023', quantity: 1 }])
  expect(order?.card.holder, 'card holder').toBe('Jack Fulton')
  expect(order?.card.number, 'card number').toBe('9231343289277764')
  expect([order?.card.exp_month, order?.card.exp_year], 'expiry').toEqual([1, 2029])
  expect(order?.card.cvc, 'security code').toBe('128')
})
