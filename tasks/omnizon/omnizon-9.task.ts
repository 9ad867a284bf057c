import { agentTest, expectPurchase, type Purchase } from 'agentest'

const CARD = { holder: 'Jack Fulton', number: '9231 3432 8927 7764', month: '1', year: '2029', cvc: '128' }
// The first result of "PlayStation DualSense" is the white controller, p023.
const RIGHT: Purchase = { search: 'PlayStation DualSense', product: 'p023', route: 'buy_now', card: CARD }

const test = agentTest({
  id: 'omnizon-9',
  app: 'omnizon',
  goal: 'Search for "PlayStation DualSense", open the first result and buy it with "Buy Now", but first change the payment method to a new card: name Jack Fulton, number 9231 3432 8927 7764, expiry 1/2029, security code 128.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 30,
  solution: ({ shop }) => shop.buy(RIGHT),
  alternatives: {
    // The same card typed as printed on many cards: holder in capitals, number without spaces.
    'card typed differently': ({ shop }) => shop.buy({ ...RIGHT, card: { ...CARD, holder: 'JACK FULTON', number: '9231343289277764' } }),
  },
  near_misses: {
    'default card': ({ shop }) => shop.buy({ ...RIGHT, card: undefined }),
    'mistyped card number': ({ shop }) => shop.buy({ ...RIGHT, card: { ...CARD, number: '9231 3432 8927 7746' } }),
    'wrong expiry': ({ shop }) => shop.buy({ ...RIGHT, card: { ...CARD, year: '2028' } }),
    'through the cart': ({ shop }) => shop.buy({ ...RIGHT, route: 'cart' }),
    'second result': ({ shop }) => shop.buy({ ...RIGHT, product: 'p024' }),
  },
})

test('pays for the controller with the new card', async ({ run, app, expect }) => {
  await run()
  // "But first change the payment method": paying with another card and then correcting it is not this goal.
  const order = expectPurchase(expect, await app.finish(), { items: [{ product: 'p023', quantity: 1 }], route: 'buy_now' })
  expect(order?.card.holder.trim().replace(/\s+/g, ' ').toLowerCase(), 'card holder (any case)').toBe('jack fulton')
  expect(order?.card.number, 'card number').toBe('9231343289277764')
  expect([order?.card.exp_month, order?.card.exp_year], 'expiry').toEqual([1, 2029])
  expect(order?.card.cvc, 'security code').toBe('128')
})
