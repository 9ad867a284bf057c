import { agentTest, type SolutionContext } from 'agentest'
import { changes, mailbox, openMessage, seeded, written } from './support.ts'

// The default seed's Inbox holds three newsletters (each with an unsubscribe footer). The other
// automated mail (the flight confirmation, the hotel booking) is not a newsletter.
const NEWSLETTERS = [
  seeded('default', 'm2', 'The Weekly Byte #142'),
  seeded('default', 'm5', 'Trailhead Journal'),
  seeded('default', 'm10', 'The Daily Ledger'),
]
const HOTEL = seeded('default', 'm8', 'Booking confirmed: Casa do Largo')

/** Opens each message from the Inbox and archives it from its page (back to the Inbox each time). */
async function archiveOneByOne(context: SolutionContext, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await openMessage(context, id)
    await context.ui.click('#archive')
  }
}

/** Ticks the rows in the Inbox list, then one of the list's buttons. */
async function tickAnd({ ui }: SolutionContext, ids: readonly string[], button: '#bulk-archive' | '#bulk-delete'): Promise<void> {
  for (const id of ids) await ui.click(`#select-${id}`)
  await ui.click(button)
}

const test = agentTest({
  id: 'inbox-1',
  app: 'inbox',
  goal: 'Archive every newsletter in my Inbox. Leave all my other mail where it is.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 20,
  solution: (context) => archiveOneByOne(context, NEWSLETTERS),
  alternatives: {
    'ticked and archived together': (context) => tickAnd(context, NEWSLETTERS, '#bulk-archive'),
  },
  near_misses: {
    'one newsletter left': (context) => archiveOneByOne(context, NEWSLETTERS.slice(0, 2)),
    'deleted instead': (context) => tickAnd(context, NEWSLETTERS, '#bulk-delete'),
    'the hotel booking too': (context) => tickAnd(context, [...NEWSLETTERS, HOTEL], '#bulk-archive'),
  },
})

test('archives the three newsletters and moves nothing else', async ({ run, app, expect }) => {
  await run()
  const mail = await mailbox(app)
  expect(changes(mail), 'exactly the newsletters moved, each to the Archive').toEqual(NEWSLETTERS.map((id) => `${id} folder: inbox -> archive`))
  expect(written(mail).length, 'no message sent').toBe(0)
})
