import { agentTest, type SolutionContext } from 'agentest'
import { launch, mentionsNumber, untilMenuOpen } from './support.ts'

// payment = P·r / (1 − (1 + r)^−n) with P = 12000, r = 0.005, n = 24: 531.847… → $531.85.
const PAYMENT = 531.85

/**
 * Switches galculator to Paper Mode (View menu, Alt+V then P), where a whole formula is typed
 * into a line and Enter evaluates it: the basic mode's keypad drops a digit typed twice in a row.
 */
async function paperMode({ computer, desktop }: SolutionContext): Promise<void> {
  await computer.keypress(['alt', 'v'])
  await untilMenuOpen(desktop)
  await computer.keypress(['p'])
}

const test = agentTest({
  id: 'desktop-calculator-loan',
  desktop_image: 'agentest/desktop',
  category: 'calculator',
  level: 'bronze',
  goal: 'Use the calculator to work out the monthly payment on a $12,000 loan repaid over 24 months at 0.5% interest per month. The formula is payment = P × r / (1 − (1 + r)^(−n)), with P the amount, r the monthly rate and n the number of months. Tell me the payment rounded to the cent.',
  setup_cmd: launch('galculator', '^galculator$'),
  solution: async (context) => {
    await paperMode(context)
    await context.computer.type('12000*0.005/(1-(1+0.005)^(-24))\n')
    // What the paper shows, 531.847323033, rounded to the cent.
    return `$${((12000 * 0.005) / (1 - (1 + 0.005) ** -24)).toFixed(2)}`
  },
  near_misses: {
    'interest on the whole loan once': async (context) => {
      await paperMode(context)
      await context.computer.type('12000*1.005/24\n')
      return '$502.50'
    },
    'yearly rate read as monthly': async (context) => {
      await paperMode(context)
      await context.computer.type('12000*0.06/(1-(1+0.06)^(-24))\n')
      return '$956.75'
    },
  },
})

test('gives the monthly payment', async ({ run, expect }) => {
  const { answer } = await run()
  expect(mentionsNumber(answer, PAYMENT, 0.006), `the answer gives ${PAYMENT}`).toBe(true)
})
