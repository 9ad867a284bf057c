import { agentTest, type SolutionContext } from 'agentest'
import { changes, mailbox, openFolder, openMessage, searchMail, seeded, written } from './support.ts'

// The Trash holds the landlord's lease renewal (deleted by mistake) and a prize scam.
const LEASE = seeded('default', 'm13', 'Lease renewal for 14 Alder Street')
const SCAM = seeded('default', 'm14', 'Congratulations!')

/** Opens the Trash, opens the message, and clicks one of its buttons. */
async function fromTrash(context: SolutionContext, id: string, button: '#move-inbox' | '#archive'): Promise<void> {
  await openFolder(context, 'trash')
  await openMessage(context, id)
  await context.ui.click(button)
}

const test = agentTest({
  id: 'inbox-4',
  app: 'inbox',
  goal: "I deleted my landlord's email about renewing my lease by mistake. Put it back in my Inbox.",
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 12,
  solution: (context) => fromTrash(context, LEASE, '#move-inbox'),
  alternatives: {
    'found by search': async (context) => {
      await searchMail(context, 'lease')
      await openMessage(context, LEASE)
      await context.ui.click('#move-inbox')
    },
    'ticked in the trash': async (context) => {
      await openFolder(context, 'trash')
      await context.ui.click(`#select-${LEASE}`)
      await context.ui.click('#bulk-inbox')
    },
  },
  near_misses: {
    'the scam instead': (context) => fromTrash(context, SCAM, '#move-inbox'),
    'archived instead': (context) => fromTrash(context, LEASE, '#archive'),
    'the whole trash restored': async (context) => {
      await openFolder(context, 'trash')
      await context.ui.click('#select-all')
      await context.ui.click('#bulk-inbox')
    },
  },
})

test('moves the lease email from the Trash back to the Inbox', async ({ run, app, expect }) => {
  await run()
  const mail = await mailbox(app)
  expect(changes(mail), 'only the lease email moved, from the Trash to the Inbox').toEqual([`${LEASE} folder: trash -> inbox`])
  expect(written(mail).length, 'no message sent').toBe(0)
})
