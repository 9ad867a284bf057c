import { agentTest, expectAnswer, expectNoPurchase } from 'agentest'
import { spec } from './support-shopping.ts'

// Silverware sets by "Service for" (Cookware & Dining, the only silverware in the catalog):
// HIWARE 48-piece 8, Mikasa Delfina 20-piece 4, Oneida Aptitude 45-piece 8, Lenox Portola
// 65-piece 12 (p110). The Lenox Portola serves the most people; the other sets and their piece
// counts are the candidates an answer must not name.
const OTHER_SETS = ['HIWARE', 'Mikasa', 'Delfina', 'Oneida', 'Aptitude', 48, 20, 45]

const test = agentTest({
  id: 'omnizon-23',
  app: 'omnizon',
  goal: 'Which silverware set on Omnizon serves the most people? Tell me its name and how many pieces it has.',
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async ({ shop, ui }) => {
    await shop.search('silverware set')
    await shop.openProduct('p110')
    const title = await ui.text('#product-title')
    return `The ${title} serves the most people (service for ${await spec(ui, 'Service for')}); it has ${await spec(ui, 'Pieces')} pieces.`
  },
  near_misses: {
    'wrong set': async () => 'The HIWARE 48-Piece Silverware Set serves 8 people and has 48 pieces.',
    'pieces missing': async () => 'The Lenox Portola Flatware Silverware Set serves the most people: 12.',
    'every set': async () => 'Lenox Portola: 65 pieces, service for 12. Also HIWARE: 48 pieces, service for 8; Oneida Aptitude: 45 pieces, service for 8.',
  },
  alternatives: {
    'from the category in other words': async ({ shop, ui }) => {
      await shop.openCategory('cookware')
      await shop.openProduct('p110')
      return `Lenox Portola flatware: service for ${await spec(ui, 'Service for')} people, ${await spec(ui, 'Pieces')} pcs.`
    },
  },
})

test('names the silverware set serving the most people and its piece count', async ({ run, app, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { names: [/Lenox|Portola/i, 65], notNaming: OTHER_SETS, what: 'the Lenox Portola set and its 65 pieces' })
  expectNoPurchase(expect, await app.finish())
})
