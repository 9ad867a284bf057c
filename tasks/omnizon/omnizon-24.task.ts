import { agentTest, expectAnswer, expectPurchase, type Purchase } from 'agentest'
import { spec } from './support-shopping.ts'

// Queen bed frames by "Under-bed clearance": Zinus Shawn (p122) 13 in, Omnizon Basics foldable
// (p123) 12.5 in, Novilla (p124) 7 in, Allewie (p125) 10 in. The Zinus Suzanne (p127) also has
// 13 in but is a Full, and the DHP (p126) is a King. The right title holds "14 Inch" (its height),
// so the answer check rejects the other frames and their clearances, not any other number.
const MOST_CLEARANCE_QUEEN = 'p122'
const inches = (n: string) => new RegExp(`(?<![\\d.])${n}\\s*-?\\s*(in\\b|inch|"|″|”)`, 'i')
const OTHER_FRAMES = ['Omnizon Basics', 'Foldable', 'Novilla', 'Allewie', 'Suzanne', 12.5, inches('7'), inches('10')]
const RIGHT: Purchase = { search: 'queen bed frame', product: MOST_CLEARANCE_QUEEN }

const test = agentTest({
  id: 'omnizon-24',
  app: 'omnizon',
  goal: 'Order the queen-size bed frame with the most under-bed clearance, and tell me how much clearance it has.',
  difficulty: 'hard',
  challenge_type: 'retrieval-action',
  max_steps: 25,
  solution: async ({ shop, ui }) => {
    await shop.search(RIGHT.search!)
    await shop.openProduct(MOST_CLEARANCE_QUEEN)
    const [title, clearance] = [await ui.text('#product-title'), await spec(ui, 'Under-bed clearance')]
    await shop.buyNow()
    await shop.placeOrder()
    return `I ordered the ${title}; it has ${clearance} of under-bed clearance, the most of the queen frames.`
  },
  near_misses: {
    'less clearance': async ({ shop }) => {
      await shop.buy({ ...RIGHT, product: 'p123' })
      return 'I ordered the Omnizon Basics Foldable Metal Platform Bed Frame; it has 12.5 inches of clearance.'
    },
    'full size frame': async ({ shop }) => {
      await shop.buy({ ...RIGHT, search: 'platform bed frame full', product: 'p127' }) // Zinus Suzanne, Full, 13 inches
      return 'I ordered the Zinus Suzanne Platform Bed Frame; it has 13 inches of clearance.'
    },
    'no answer': ({ shop }) => shop.buy(RIGHT),
    'every clearance': async ({ shop }) => {
      await shop.buy(RIGHT)
      return 'I ordered the Zinus Shawn (13 inches of clearance). The others: Omnizon Basics 12.5 in, Allewie 10 in, Novilla 7 in.'
    },
  },
  alternatives: {
    'via the cart in inch marks': async ({ shop, ui }) => {
      await shop.search(RIGHT.search!)
      await shop.openProduct(MOST_CLEARANCE_QUEEN)
      const clearance = parseFloat(await spec(ui, 'Under-bed clearance'))
      await shop.addToCart()
      await shop.proceedToCheckout()
      await shop.placeOrder()
      return `Done: the Zinus Shawn queen frame is ordered. Clearance: ${clearance}″ under the bed.`
    },
  },
})

test('orders the Zinus Shawn queen frame and reports its 13-inch clearance', async ({ run, app, expect }) => {
  const { answer } = await run()
  expectPurchase(expect, await app.finish(), { items: [{ product: MOST_CLEARANCE_QUEEN, quantity: 1 }] })
  expectAnswer(expect, answer, { names: 13, notNaming: OTHER_FRAMES, what: '13 inches of clearance' })
})
