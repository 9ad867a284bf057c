import { agentTest, normalizeText, type SolutionContext } from 'agentest'
import { PEOPLE } from '../../fixtures/apps/inbox/seeds.ts'
import { changes, composeMail, mailbox, openMessage, recipients, replyWith, searchMail, seeded, senderAddress, written } from './support.ts'

const SUBJECT = 'Kickoff room'
// Sam's address is on his bike-to-work email (m11); the room is in Priya's invite (m3).
const SAM_MAIL = seeded('default', 'm11', 'Bike-to-work week')
const INVITE = seeded('default', 'm3', 'Q4 planning kickoff')

/** Reads Sam's address and the kickoff room from their emails, then writes to him. */
async function writeToSam(context: SolutionContext, change: { to?: (address: string) => string; subject?: string; room?: string } = {}): Promise<void> {
  const { ui } = context
  await openMessage(context, SAM_MAIL)
  const address = await senderAddress(context)
  await ui.click('#folder-inbox')
  await openMessage(context, INVITE)
  const room = change.room ?? /the (\w+ Room)/.exec(await ui.text('#message-body'))?.[1]
  if (!room) throw new Error('no room in the invite')
  await composeMail(context, {
    to: change.to ? change.to(address) : address,
    subject: change.subject ?? SUBJECT,
    body: `Hi Sam, the Q4 planning kickoff is in the ${room} on the 3rd floor.`,
  })
}

const test = agentTest({
  id: 'inbox-8',
  app: 'inbox',
  goal: `Send Sam Whitfield a new email (not a reply) with the subject "${SUBJECT}" that tells him which room the Q4 planning kickoff is in.`,
  difficulty: 'medium',
  challenge_type: 'retrieval-action',
  max_steps: 25,
  solution: (context) => writeToSam(context),
  alternatives: {
    'name and address': (context) => writeToSam(context, { to: (address) => `Sam Whitfield <${address}>` }),
    'found by search': async (context) => {
      await searchMail(context, 'Sam Whitfield')
      await openMessage(context, SAM_MAIL)
      const address = await senderAddress(context)
      await searchMail(context, 'kickoff room')
      await openMessage(context, INVITE)
      await composeMail(context, { to: address, subject: SUBJECT, body: 'The kickoff is in the Cedar Room (3rd floor).' })
    },
  },
  near_misses: {
    'as a reply': async (context) => {
      await openMessage(context, SAM_MAIL)
      await replyWith(context, 'Hi Sam, the Q4 planning kickoff is in the Cedar Room on the 3rd floor.')
    },
    'wrong room': (context) => writeToSam(context, { room: 'Juniper Room' }),
    'wrong address': (context) => writeToSam(context, { to: () => 'sam@northwind.example' }),
    'no subject': (context) => writeToSam(context, { subject: '' }),
  },
})

test('emails Sam the kickoff room in a new message', async ({ run, app, expect }) => {
  await run()
  const mail = await mailbox(app)
  const sent = written(mail)
  expect(sent.length, 'exactly one message sent').toBe(1)
  const message = sent[0]
  expect(message?.in_reply_to, 'a new email, not a reply').toBeNull()
  expect(recipients(message), 'sent to Sam Whitfield only').toEqual([PEOPLE.sam.email])
  expect(normalizeText(message?.subject ?? '').trim(), `the subject is "${SUBJECT}"`).toBe(normalizeText(SUBJECT))
  expect(/\bCedar\b/i.test(message?.body ?? ''), 'names the Cedar Room').toBe(true)
  expect(/\bJuniper\b/i.test(message?.body ?? ''), 'names no other room').toBe(false)
  expect(changes(mail), 'no mail moved, starred or labelled').toEqual([])
})
