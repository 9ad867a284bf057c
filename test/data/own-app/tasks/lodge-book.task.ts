import { agentTest } from 'agentest'
import { book, lodge, made, type Stay } from './support.ts'

// A sound state task: the booking is read from the app's /finish, typed and parsed. The lodge
// declares no orders, so the gate's shop near misses are not applicable, with that reason.
const RIGHT: Stay = { room: 'cedar', guest: 'Dana Reyes', checkIn: '2025-10-06', nights: 2 }

const test = agentTest({
  id: 'lodge-book',
  app: 'lodge',
  goal: 'Book the Cedar room at Lakeside Lodge for Dana Reyes, checking in on 2025-10-06 for 2 nights.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 15,
  solution: (context) => book(context, RIGHT),
  near_misses: {
    'the pine room': (context) => book(context, { ...RIGHT, room: 'pine' }),
    'one night': (context) => book(context, { ...RIGHT, nights: 1 }),
  },
})

test('books the Cedar room for Dana Reyes, two nights from October 6', async ({ run, app, expect }) => {
  await run()
  const bookings = made(await lodge(app)).map(({ room_id, guest, check_in, nights, status }) => ({ room_id, guest, check_in, nights, status }))
  expect(bookings, 'exactly one booking: Cedar, Dana Reyes, 2025-10-06, 2 nights').toEqual([
    { room_id: 'cedar', guest: 'Dana Reyes', check_in: '2025-10-06', nights: 2, status: 'booked' },
  ])
})
