import { agentTest, expectAnswer } from 'agentest'
import { rooms } from './support.ts'

// A loose answer check: it asks for the right room and refuses none of the others, so an answer
// that lists every room (the gate's hedger, with the rooms the lodge environment declares) passes.
const test = agentTest({
  id: 'lodge-beds',
  app: 'lodge',
  goal: 'Which room at Lakeside Lodge has the most beds?',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 5,
  solution: async (context) => {
    const [most] = (await rooms(context)).sort((a, b) => b.beds - a.beds)
    return `The ${most!.name} room, with ${most!.beds} beds.`
  },
  near_misses: {
    'the cedar room': async () => 'The Cedar room, with 2 beds.',
  },
})

test('names the Maple room', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { what: 'the Maple room', names: ['Maple'], notNaming: [] })
})
