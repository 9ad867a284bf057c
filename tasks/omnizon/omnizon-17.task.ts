import { agentTest, OmnizonView } from 'agentest'

// Gaming laptops under $1,000: the catalog has two gaming laptops (both in Gaming): the ASUS TUF
// A15 at $949.99 and the Alienware m16 R2 at $1,799.99; the Laptops category has none with a
// gaming GPU. So the laptop must be the ASUS. Monitors under $200 (Monitors category): KTC 24"
// $129.99, Dell S2421NX $119.99, ASUS VG249Q1A $139, Acer Nitro $99.99, HP 24mh $129, Sceptre 27" $129.97.
const GAMING_LAPTOP_UNDER_1000 = 'p034'
const MONITORS_UNDER_200 = ['p050', 'p051', 'p052', 'p053', 'p054', 'p056']

const test = agentTest({
  id: 'omnizon-17',
  app: 'omnizon',
  goal: 'I want a gaming laptop that costs less than $1,000 and a monitor under $200 to use with it. Order both together in one order.',
  difficulty: 'hard',
  challenge_type: 'action',
  max_steps: 30,
  solution: async ({ shop }) => {
    await shop.search('gaming laptop')
    await shop.openProduct(GAMING_LAPTOP_UNDER_1000)
    await shop.addToCart()
    await shop.search('monitor')
    await shop.openProduct('p053')
    await shop.addToCart()
    await shop.proceedToCheckout()
    await shop.placeOrder()
  },
  near_misses: {
    'laptop over budget': async ({ shop }) => {
      await shop.search('gaming laptop')
      await shop.openProduct('p035') // Alienware m16 R2, $1,799.99
      await shop.addToCart()
      await shop.search('monitor')
      await shop.openProduct('p053')
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
    'monitor over budget': async ({ shop }) => {
      await shop.search('gaming laptop')
      await shop.openProduct(GAMING_LAPTOP_UNDER_1000)
      await shop.addToCart()
      await shop.search('monitor')
      await shop.openProduct('p055') // Samsung Odyssey G55C, $249.99
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
    },
    'laptop only': async ({ shop }) => {
      await shop.search('gaming laptop')
      await shop.openProduct(GAMING_LAPTOP_UNDER_1000)
      await shop.buyNow()
      await shop.placeOrder()
    },
  },
})

test('orders the gaming laptop under $1,000 with a monitor under $200', async ({ run, app, expect }) => {
  await run()
  const shop = await app.finish()
  const order = shop.lastOrder
  const items = OmnizonView.items(order)
  const monitor = order?.items.find((line) => line.product_id !== GAMING_LAPTOP_UNDER_1000)
  expect(shop.newOrders, 'exactly one order').toHaveLength(1)
  expect(order?.status, 'the order is placed').toBe('placed')
  expect(items.map((item) => item.quantity), 'two products, one of each').toEqual([1, 1])
  expect(items.map((item) => item.id), 'the ASUS TUF A15, the only gaming laptop under $1,000').toContain(GAMING_LAPTOP_UNDER_1000)
  expect(MONITORS_UNDER_200, 'the other product is a monitor under $200').toContain(monitor?.product_id)
  expect(monitor?.unit_price, 'the monitor costs less than $200').toBeLessThan(200)
})
