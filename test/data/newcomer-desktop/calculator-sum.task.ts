/**
 * A newcomer's desktop task, written from docs/desktop.md alone: the calculator works out a sum,
 * the answer names it, and the checks show the calculator (not a terminal) was used.
 * test/desktop-helpers/newcomer-types.test.ts type-checks it; it also runs under the oracle.
 */
import { agentTest, expectAnswer, expectCalculatorShows, expectNoShellCommand, inTerminal, launchApp, type SolutionContext } from 'agentest'

const SUM = 7006652 + 1211

/** Types the sum on the calculator's keypad (Enter works it out) and answers with `answer`. */
async function add({ computer }: SolutionContext, keys: string, answer: number): Promise<string> {
  await computer.type(`${keys}\n`)
  return String(answer)
}

const test = agentTest({
  id: 'newcomer-desktop-calculator-sum',
  desktop_image: 'agentest/desktop',
  category: 'calculator',
  level: 'paper',
  challenge_type: 'retrieval',
  tool: 'galculator',
  goal: 'Use the calculator that is open to add 7006652 and 1211, and tell me the result.',
  setup_cmd: launchApp('galculator'),
  solution: (context) => add(context, '7006652+1211', SUM),
  near_misses: {
    'subtracted instead': (context) => add(context, '7006652-1211', 7006652 - 1211),
    shortcut: async (context) => {
      await inTerminal(context, ['echo $((7006652+1211))'], { forge: { calculator: SUM } })
      return String(SUM)
    },
  },
})

test('adds the two numbers on the calculator', async ({ run, shell, observed, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { names: SUM, notNaming: [7006652 - 1211, SUM + 1, SUM - 1], what: `the sum, ${SUM}` })
  await expectNoShellCommand({ expect, observed, shell }, 'the sum was worked out')
  await expectCalculatorShows({ expect, observed, shell }, SUM)
})
