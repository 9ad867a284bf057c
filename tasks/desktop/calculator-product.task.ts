import { agentTest } from 'agentest'
import { launch, mentionsNumber } from './support.ts'

// 48 × 365 = 17520. The calculator starts in its basic mode, where keys typed in a row work as
// long as no digit repeats right after itself (galculator drops the second of two equal keys).
const PRODUCT = 17_520

const test = agentTest({
  id: 'desktop-calculator-product',
  desktop_image: 'agentest/desktop',
  category: 'calculator',
  level: 'paper',
  goal: 'Use the calculator that is open to work out 48 × 365, and tell me the result.',
  setup_cmd: launch('galculator', '^galculator$'),
  solution: async ({ computer }) => {
    await computer.type('48*365\n')
    return String(48 * 365)
  },
  near_misses: {
    'added instead of multiplied': async ({ computer }) => {
      await computer.type('48+365\n')
      return String(48 + 365)
    },
    'digits swapped': async ({ computer }) => {
      await computer.type('48*356\n')
      return String(48 * 356)
    },
  },
})

test('answers 48 × 365', async ({ run, expect }) => {
  const { answer } = await run()
  expect(mentionsNumber(answer, PRODUCT), `the answer gives ${PRODUCT}`).toBe(true)
})
