import { agentTest, expectAnswer, expectCalculatorShows, inTerminal, launchApp, type SolutionContext } from 'agentest'
import { calculate } from './support.ts'

// 48 × 365 = 17520, easy to know without the calculator: the calculator itself must show it.
const PRODUCT = 48 * 365
// Plausible wrong results: the near misses' (48 + 365, 48 × 356), the operands read the other
// way round (84 × 365, 48 × 563), and one off, a tenth and ten times the product. The operands
// 48 and 365 may appear in a right answer ("48 × 365 = 17,520").
const WRONG = [48 + 365, 48 * 356, 84 * 365, 48 * 563, PRODUCT + 1, PRODUCT - 1, PRODUCT / 10, PRODUCT * 10]

/** Works out `keys` on the calculator's keypad (its basic mode) and answers with `answer`. */
async function multiply(context: SolutionContext, keys: string, answer: number): Promise<string> {
  await calculate(context, `${keys}\n`)
  return String(answer)
}

const test = agentTest({
  id: 'desktop-calculator-product',
  desktop_image: 'agentest/desktop',
  category: 'calculator',
  level: 'paper',
  challenge_type: 'retrieval',
  tool: 'galculator',
  goal: 'Use the calculator that is open to work out 48 × 365, and tell me the result.',
  setup_cmd: launchApp('galculator'),
  solution: (context) => multiply(context, '48*365', PRODUCT),
  near_misses: {
    'added instead of multiplied': (context) => multiply(context, '48+365', 48 + 365),
    'digits swapped': (context) => multiply(context, '48*356', 48 * 356),
    // The right number, worked out in a terminal (or known by heart): the calculator shows 0.
    shortcut: async (context) => {
      await inTerminal(context, ['echo $((48*365))'], { forge: { calculator: PRODUCT } })
      return String(PRODUCT)
    },
  },
  alternatives: {
    // Another wording, with a thousands separator and the sum written out.
    'answer in a sentence': async (context) => {
      await multiply(context, '48*365', PRODUCT)
      return '48 × 365 = 17,520.'
    },
    // The = key instead of Enter.
    'equals key': (context) => multiply(context, '48*365=', PRODUCT),
  },
})

test('answers 48 × 365 with the calculator', async ({ run, shell, observed, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { names: PRODUCT, notNaming: WRONG, what: `the product, ${PRODUCT}` })
  await expectCalculatorShows({ expect, observed, shell }, PRODUCT)
})
