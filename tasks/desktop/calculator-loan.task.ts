import { agentTest, expectAnswer, expectCalculatorShows, inTerminal, launchApp, paperMode, scientificMode, type SolutionContext } from 'agentest'
import { calculate } from './support.ts'

// payment = P·r / (1 − (1 + r)^−n) with P = 12000, r = 0.005, n = 24: 531.847… → $531.85.
const payment = (rate: number, months = 24) => (12000 * rate) / (1 - (1 + rate) ** -months)
const PAYMENT = payment(0.005)
const CENTS = Number(PAYMENT.toFixed(2))
// Plausible wrong results: the near misses' (interest on the whole loan once, 502.50; the yearly
// 6% read as monthly, 956.75), no interest at all (500), the payment cut to the cent (531.84),
// one off, a tenth and ten times it. The loan's own figures (12,000, 24, 0.5%) may appear in a
// right answer.
const WRONG = [502.5, Number(payment(0.06).toFixed(2)), 500, 531.84, CENTS + 1, CENTS - 1, 53.18, 53.19, CENTS * 10]

/**
 * The formula on the calculator's scientific keypad, which has powers and parentheses but gets a
 * power of a parenthesis wrong: P·r·g / (g − 1) with g = 1.005^24 is the same payment.
 */
async function keypad(context: SolutionContext, rate: string): Promise<string> {
  await scientificMode(context)
  const growth = `${1 + Number(rate)}^24`
  await calculate(context, `12000*${rate}*${growth}/(${growth}-1)=`)
  return `$${payment(Number(rate)).toFixed(2)}`
}

const test = agentTest({
  id: 'desktop-calculator-loan',
  desktop_image: 'agentest/desktop',
  category: 'calculator',
  level: 'bronze',
  challenge_type: 'retrieval',
  tool: 'galculator',
  goal: 'Use the calculator to work out the monthly payment on a $12,000 loan repaid over 24 months at 0.5% interest per month. The formula is payment = P × r / (1 − (1 + r)^(−n)), with P the amount, r the monthly rate and n the number of months. Tell me the payment rounded to the cent.',
  setup_cmd: launchApp('galculator'),
  solution: (context) => keypad(context, '0.005'),
  near_misses: {
    'interest on the whole loan once': async (context) => {
      await calculate(context, '12000*1.005/24=')
      return '$502.50'
    },
    'yearly rate read as monthly': (context) => keypad(context, '0.06'),
    // The payment worked out in a terminal: right, but the calculator was never used.
    shortcut: async (context) => {
      await inTerminal(context, [`awk 'BEGIN { printf "%.2f\\n", 12000*0.005/(1-(1.005)^-24) }'`], { forge: { calculator: PAYMENT } })
      return `$${CENTS.toFixed(2)}`
    },
  },
  alternatives: {
    // Paper mode takes the formula as written, negative exponent and all.
    'paper mode': async (context) => {
      await paperMode(context)
      await context.computer.type('12000*0.005/(1-(1+0.005)^(-24))\n')
      return `$${CENTS.toFixed(2)}`
    },
    'answer in a sentence': async (context) => {
      await keypad(context, '0.005')
      return `The monthly payment is about ${CENTS.toFixed(2)} dollars (531.847 before rounding).`
    },
  },
})

test('gives the monthly payment, worked out on the calculator', async ({ run, shell, observed, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { names: CENTS, notNaming: WRONG, what: `the payment, $${CENTS}` })
  await expectCalculatorShows({ expect, observed, shell }, PAYMENT, { tolerance: 0.01 })
})
