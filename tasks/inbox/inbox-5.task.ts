import { agentTest, type SolutionContext } from 'agentest'
import { changes, mailbox, openMessage, searchMail, seeded, written } from './support.ts'

// One flight confirmation (SkyJet, m4); the Lisbon hotel booking (m8) is travel mail too, but not a flight.
const FLIGHT = seeded('default', 'm4', 'Your flight confirmation')
const HOTEL = seeded('default', 'm8', 'Booking confirmed: Casa do Largo')

/** Opens each message from the Inbox and adds the label on its page. */
async function label(context: SolutionContext, ids: readonly string[], name = 'travel'): Promise<void> {
  for (const id of ids) {
    await context.ui.click('#folder-inbox')
    await openMessage(context, id)
    await context.ui.click(`#label-add-${name}`)
  }
}

const test = agentTest({
  id: 'inbox-5',
  app: 'inbox',
  goal: 'Add the label "travel" to my flight confirmation email.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 10,
  solution: (context) => label(context, [FLIGHT]),
  alternatives: {
    'found by search': async (context) => {
      await searchMail(context, 'flight confirmation')
      await openMessage(context, FLIGHT)
      await context.ui.click('#label-add-travel')
    },
  },
  near_misses: {
    'the hotel too': (context) => label(context, [FLIGHT, HOTEL]),
    'the hotel instead': (context) => label(context, [HOTEL]),
    'wrong label': (context) => label(context, [FLIGHT], 'work'),
  },
})

test('labels the flight confirmation travel, and nothing else', async ({ run, app, expect }) => {
  await run()
  const mail = await mailbox(app)
  expect(changes(mail), 'only the flight confirmation changed: it gained the label travel').toEqual([`${FLIGHT} labels: [] -> [travel]`])
  expect(written(mail).length, 'no message sent').toBe(0)
})
