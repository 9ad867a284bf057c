import { agentTest, expectAnswer, type SolutionContext } from 'agentest'
import { apart } from './support.ts'

const NAME = 'KTC 24 inch 1500R Curved Gaming Monitor'

/** Opens a monitor's page and answers with its specification table. */
const readSpecs =
  (search: string, product: string) =>
  async ({ shop, ui }: SolutionContext) => {
    await shop.search(search)
    await shop.openProduct(product)
    const rows = await ui.locator('#specs tr').allInnerTexts()
    return `Its specifications:\n${rows.map((r) => r.replace(/\s+/g, ' ').trim()).join('\n')}`
  }

const test = agentTest({
  id: 'omnizon-5',
  app: 'omnizon',
  goal: `Find the "${NAME}" and tell me its screen size, resolution, refresh rate and response time.`,
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: readSpecs(NAME, 'p050'),
  alternatives: {
    // The result's title already says it all ("..., 165Hz, 1080p FHD, 1ms, FreeSync"): no product page needed.
    'from the results list': async ({ shop }) => {
      await shop.search(NAME)
      return `The ${NAME}: 24″ screen, Full HD (1080p), 165 Hz refresh rate, 1 ms response time.`
    },
  },
  near_misses: {
    // Also sold as "24 inch", but its screen measures 23.8 inches.
    'the asus 24-inch instead': readSpecs('ASUS TUF Gaming 24 inch monitor', 'p052'),
    'the 27-inch odyssey instead': readSpecs('Samsung Odyssey G55C', 'p055'),
    // Pastes the goal's own name and one fact: the size is in the name, not stated.
    'size only in the name': async ({ shop }) => {
      await shop.search(NAME)
      return `The ${NAME} has 1920 x 1080 resolution, 165Hz and 1ms.`
    },
    'one digit off': async ({ shop }) => {
      await shop.search(NAME)
      return 'Screen size 24 inches, resolution 1920 x 1080, refresh rate 165Hz, response time 11 ms.'
    },
  },
})

test('reports the monitor specifications', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, apart(answer, NAME), {
    what: 'its four specs (apart from the goal’s own product name)',
    names: [
      /(?<![\d.])24(\.0)?\s*-?\s*(inch|inches|in\b|"|″|”)/i,
      /1920\s*(x|×|by)\s*1080|1080p|full\s*hd|\bFHD\b/i,
      /(?<![\d.])165\s*hz/i,
      /(?<![\d.])1\s*(ms\b|millisecond)/i,
    ],
    // What the other monitors measure: 23.8/27/32 inches, QHD or 4K, 60/75/180 Hz, 4 or 5 ms.
    notNaming: [23.8, 27, 32, /2560\s*(x|×|by)\s*1440|1440p|3840\s*(x|×|by)\s*2160|\b4K\b/i, /(?<![\d.])(60|75|180)\s*hz/i, /(?<![\d.])[2-9]\s*ms\b/i],
  })
})
