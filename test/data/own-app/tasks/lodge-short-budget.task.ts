import { agentTest } from 'agentest'
import { book, lodge, made, type Stay } from './support.ts'

// A near miss cut short: "and the maple room too" books the right room, then runs out of the
// task's step budget before it books the wrong one, so it matches the reference and passes. The
// gate must call that a broken variant (give it the steps it needs), not a weak check.
const RIGHT: Stay = { room: 'pine', guest: 'Sam Lee', checkIn: '2025-11-03', nights: 1 }

const test = agentTest({
  id: 'lodge-short-budget',
  app: 'lodge',
  goal: 'Book the Pine room at Lakeside Lodge for Sam Lee, checking in on 2025-11-03 for 1 night.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 14,
  solution: (context) => book(context, RIGHT),
  near_misses: {
    'and the maple room too': async (context) => {
      await book(context, RIGHT)
      await book(context, { ...RIGHT, room: 'maple' })
    },
  },
})

test('books only the Pine room for Sam Lee', async ({ run, app, expect }) => {
  await run()
  const rooms = made(await lodge(app)).map((b) => `${b.room_id} ${b.guest} ${b.check_in} ${b.nights}`)
  expect(rooms, 'exactly one booking: Pine, Sam Lee, 2025-11-03, 1 night').toEqual(['pine Sam Lee 2025-11-03 1'])
})
