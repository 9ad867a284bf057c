import { agentTest, expectAnswer } from 'agentest'

// A question on an environment that declares no candidates (lodge-plain): the gate's hedger has
// nothing of this app's to list, so it is not applicable here, with that reason.
const test = agentTest({
  id: 'lodge-birch-beds',
  app: 'lodge-plain',
  goal: 'How many beds does the Birch room at Lakeside Lodge have?',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 5,
  solution: async ({ ui }) => {
    await ui.click('#open-birch')
    return `The Birch room has ${Number.parseInt(await ui.text('#room-beds'), 10)} beds.`
  },
  near_misses: {
    'the cedar room': async () => 'The Birch room has 2 beds.',
  },
})

test('says the Birch room has 3 beds', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { what: '3 beds', names: [3], notNaming: [1, 2, 4] })
})
