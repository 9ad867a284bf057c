import { agentTest, type SolutionContext } from 'agentest'
import { PEOPLE } from '../../fixtures/apps/inbox/seeds.ts'
import { changes, composeMail, mailbox, openMessage, recipients, replyWith, says, searchMail, seeded, written } from './support.ts'

const SENTENCE = 'Confirmed: you will have the Q3 vendor numbers by Friday.'
// Daniel Okafor, the engineering manager, asks for exactly this confirmation in m1; his other
// mail (m6, the team lunch) says there is no need to reply.
const ASK = seeded('default', 'm1', 'Q3 vendor numbers for the budget review')
const LUNCH = seeded('default', 'm6', 'Team lunch on Thursday')

async function replyTo(context: SolutionContext, id: string, body = SENTENCE, send = true): Promise<void> {
  await openMessage(context, id)
  await replyWith(context, body, send)
}

const test = agentTest({
  id: 'inbox-2',
  app: 'inbox',
  goal: `My manager emailed asking me to confirm that I can get him the Q3 vendor numbers. Reply to that email with this sentence: "${SENTENCE}"`,
  difficulty: 'easy',
  challenge_type: 'retrieval-action',
  max_steps: 15,
  solution: (context) => replyTo(context, ASK),
  alternatives: {
    'found by search': async (context) => {
      await searchMail(context, 'vendor numbers')
      await replyTo(context, ASK)
    },
    'with a greeting and a sign-off': (context) => replyTo(context, ASK, `Hi Daniel, ${SENTENCE} Thanks, Alex`),
  },
  near_misses: {
    'reply to the lunch email': (context) => replyTo(context, LUNCH),
    'a new email not a reply': (context) =>
      composeMail(context, { to: PEOPLE.daniel.email, subject: 'Re: Q3 vendor numbers for the budget review', body: SENTENCE }),
    'other words': (context) => replyTo(context, ASK, "Sure, I'll get them to you by Friday."),
    'never sent': (context) => replyTo(context, ASK, SENTENCE, false),
  },
})

test('replies to the manager with the sentence', async ({ run, app, expect }) => {
  await run()
  const mail = await mailbox(app)
  const sent = written(mail)
  expect(sent.length, 'exactly one message sent').toBe(1)
  const reply = sent[0]
  expect(reply?.in_reply_to, 'a reply to the email asking for the vendor numbers (m1)').toBe(ASK)
  expect(recipients(reply), 'sent to Daniel Okafor only').toEqual([PEOPLE.daniel.email])
  expect(says(reply?.body, SENTENCE), `the reply says "${SENTENCE}"`).toBe(true)
  expect(changes(mail), 'no mail moved, starred or labelled').toEqual([])
})
