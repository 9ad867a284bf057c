import type { JudgeRequest, JudgeRule } from '../../fixtures/model-server/openai/judge-policy.ts'
import { mentions } from '../../src/checks/answer.ts'

/**
 * The scripted grader's rules (a TEST DOUBLE for an LLM judge) for the llm_boolean rubrics of
 * fixtures/real-tasks: each decided from the catalog's facts, never from mere evidence.
 */
export const REAL_RUBRIC_RULES: JudgeRule[] = [
  // omnizon-cheapest-27in: the Sceptre at $129.97, and no other 27-inch monitor named as the answer.
  {
    expected: /Sceptre 27 inch Curved 75Hz LED Monitor as the cheapest/,
    facts: (request) => {
      const answer = answerOf(request)
      return [
        { question: 'Does the answer name the Sceptre monitor?', met: mentions(answer, 'Sceptre') },
        { question: 'Does it give its price, $129.97?', met: mentions(answer, 129.97) },
        { question: 'Does it name no other 27-inch monitor?', met: !['Odyssey', 'BenQ', 'LG', 'UltraSharp', 249.99, 299, 379.99, 579.99].some((other) => mentions(answer, other)) },
      ]
    },
  },
  // omnizon-top-toy: the Magna-Tiles bought, rated 4.9, and no other toy of the category named.
  {
    expected: /Magna-Tiles Classic 32-Piece set, and no other product, as the highest-rated toy/,
    facts: (request) => {
      const answer = answerOf(request)
      return [
        { question: 'Does the answer name the Magna-Tiles?', met: mentions(answer, 'Magna-Tiles') },
        { question: 'Does it say it was bought?', met: /\b(bought|ordered|purchased)\b/i.test(answer) },
        { question: 'Does it give the rating 4.9?', met: mentions(answer, 4.9) },
        { question: 'Does it name no other toy?', met: !OTHER_TOYS.some((other) => mentions(answer, other)) },
      ]
    },
  },
]

/** The other brands of the Toys & Games category. */
const OTHER_TOYS = ['LEGO', 'Play-Doh', 'Crayola', 'Fisher-Price', 'Melissa & Doug', 'Green Toys', 'VTech', 'LeapFrog', 'Hot Wheels', 'Radio Flyer']

function answerOf(request: JudgeRequest): string {
  return request.blocks.filter((block) => block.kind === 'answer').map((block) => block.text).join('\n')
}
