import { agentTest, expectPurchase } from 'agentest'
import { buySeparately, buyTogether, type BasketItem } from './support-shopping.ts'

// Gaming laptops under $1,000: the catalog has two gaming laptops (both in Gaming, the only
// laptops with a gaming GPU): the ASUS TUF A15 at $949.99 (p034) and the Alienware m16 R2 at
// $1,799.99 (p035). So the laptop must be the ASUS. Monitors under $200 (Monitors category):
// KTC 24" $129.99 (p050), Dell S2421NX $119.99 (p051), ASUS VG249Q1A $139 (p052), Acer Nitro
// $99.99 (p053), HP 24mh $129 (p054), Sceptre 27" $129.97 (p056); the rest cost $249.99 and up.
const GAMING_LAPTOP_UNDER_1000 = 'p034'
const MONITORS_UNDER_200 = ['p050', 'p051', 'p052', 'p053', 'p054', 'p056']
const LAPTOP: BasketItem = { search: 'gaming laptop', product: GAMING_LAPTOP_UNDER_1000 }
const MONITOR: BasketItem = { search: 'monitor', product: 'p053' }

const test = agentTest({
  id: 'omnizon-17',
  app: 'omnizon',
  goal: 'I want a gaming laptop that costs less than $1,000 and a monitor under $200 to use with it. Order both together in one order.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 30,
  solution: ({ shop }) => buyTogether(shop, [LAPTOP, MONITOR]),
  near_misses: {
    'laptop over budget': ({ shop }) => buyTogether(shop, [{ ...LAPTOP, product: 'p035' }, MONITOR]), // Alienware m16 R2, $1,799.99
    'monitor over budget': ({ shop }) => buyTogether(shop, [LAPTOP, { ...MONITOR, product: 'p055' }]), // Samsung Odyssey G55C, $249.99
    'laptop only': ({ shop }) => buyTogether(shop, [LAPTOP]),
    'two orders': ({ shop }) => buySeparately(shop, [LAPTOP, MONITOR]),
  },
  alternatives: {
    'another monitor from the category': ({ shop }) => buyTogether(shop, [LAPTOP, { category: 'monitors', product: 'p051' }]),
  },
})

test('orders the gaming laptop under $1,000 with a monitor under $200', async ({ run, app, expect }) => {
  await run()
  // Both sets were drawn by price from the catalog, so the set is the budget check.
  expectPurchase(expect, await app.finish(), {
    items: [
      { product: GAMING_LAPTOP_UNDER_1000, quantity: 1 },
      { product: MONITORS_UNDER_200, quantity: 1 },
    ],
  })
})
