import { agentTest, expectAnswer } from 'agentest'
import type { LodgeFinish } from '../lodge/state.ts'
import { rooms } from './support.ts'

// A sound question with candidates of its own: every room as the app's state has it, listed by
// the gate's hedger beside the right answer. The check names the other rooms and prices.
const test = agentTest({
  id: 'lodge-cheapest',
  app: 'lodge',
  goal: 'Which room at Lakeside Lodge is the cheapest per night, and what does it cost?',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 5,
  solution: async (context) => {
    const [cheapest] = (await rooms(context)).sort((a, b) => a.price - b.price)
    return `The ${cheapest!.name} room, at $${cheapest!.price} a night.`
  },
  candidates: async ({ app }) => (await app.state<LodgeFinish>()).final.rooms.map((room) => `The ${room.name} room, $${room.price} a night`),
  near_misses: {
    'the dearest room': async () => 'The Maple room, at $180 a night.',
    'price missing': async () => 'The Pine room.',
  },
})

test('names the Pine room at $95', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, { what: 'the Pine room at $95 a night', names: ['Pine', 95], notNaming: ['Cedar', 'Maple', 'Birch', 120, 180, 140] })
})
