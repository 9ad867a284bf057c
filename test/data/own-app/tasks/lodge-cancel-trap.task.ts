import { agentTest, expectAnswer, type SolutionContext } from 'agentest'
import { cancel, cancelled, lodge, made } from './support.ts'

// A trap: the guest has no Birch booking, so the right move is to act on nothing and say so.
// Doing nothing alone (nop) must still fail: the answer has to say there is no such booking.
async function lookAndSay({ ui }: SolutionContext): Promise<string> {
  await ui.click('#nav-bookings')
  const rooms = await ui.locator('#bookings tr[data-status="booked"] td:nth-child(2)').allInnerTexts()
  return `You have no booking of the Birch room, so I cancelled nothing. Your bookings are for the ${rooms.join(' and the ')} rooms.`
}

const test = agentTest({
  id: 'lodge-cancel-trap',
  app: 'lodge',
  seed: 'with-bookings',
  goal: 'Cancel my booking of the Birch room at Lakeside Lodge.',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 10,
  solution: lookAndSay,
  near_misses: {
    'cancelled another booking': async (context) => {
      await cancel(context, 'B-1001')
      return 'I cancelled your booking B-1001.'
    },
    'said nothing': async ({ ui }) => {
      await ui.click('#nav-bookings')
    },
  },
})

test('cancels nothing and says there is no Birch booking', async ({ run, app, expect }) => {
  const { answer } = await run()
  const state = await lodge(app)
  expect(cancelled(state), 'no booking cancelled').toEqual([])
  expect(made(state), 'no booking made').toEqual([])
  expectAnswer(expect, answer, {
    what: 'that there is no Birch booking to cancel',
    names: [/\b(no|not|none|never|cannot|can't)\b[^.]*\bBirch\b|\bBirch\b[^.]*\b(no|not|none)\b/i],
    // A claim to have cancelled something is wrong whatever else the answer says.
    notNaming: [/\bcancell?ed (your|the|it|booking|B-)/i],
  })
})
