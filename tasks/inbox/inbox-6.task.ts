import { agentTest, expectAnswer, type SolutionContext } from 'agentest'
import { changes, KICKOFF_DAY, mailbox, openMessage, searchMail, seeded, written } from './support.ts'

// Priya's invite (m3): Tuesday, September 23, 3:00 to 4:30 PM, Cedar Room, 3rd floor. The other
// time and place in the Inbox is the team lunch (m6): Thursday at noon at Basil & Rye.
const INVITE = seeded('default', 'm3', 'Q4 planning kickoff')

/** The sentence of the open message that names a room. */
async function roomSentence({ ui }: SolutionContext): Promise<string> {
  const body = await ui.text('#message-body')
  const sentence = body.split(/(?<=\.)\s+/).find((s) => /\bRoom\b/.test(s))
  if (!sentence) throw new Error(`no room in: ${body}`)
  return sentence.trim()
}

const test = agentTest({
  id: 'inbox-6',
  app: 'inbox',
  goal: 'When and where is the Q4 planning kickoff? Answer with the day, the time and the room.',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  solution: async (context) => {
    await openMessage(context, INVITE)
    return roomSentence(context)
  },
  alternatives: {
    'found by search': async (context) => {
      await searchMail(context, 'kickoff')
      await openMessage(context, INVITE)
      return roomSentence(context)
    },
  },
  near_misses: {
    'the team lunch': async () => 'Thursday at noon, at Basil & Rye on Harbor Street.',
    'room missing': async () => 'Tuesday, September 23 at 3:00 PM.',
    'wrong room': async () => 'Tuesday, September 23 at 3:00 PM in the Juniper Room.',
  },
})

test('gives the kickoff day, time and room', async ({ run, app, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, {
    what: 'Tuesday, September 23 at 3:00 PM in the Cedar Room',
    names: [KICKOFF_DAY, /\b3(:00)?\s*(p\.?m\b|[-–—]|to\b)|\b15:00\b/i, /\bCedar\b/i],
    // The lunch's time and place, another room, and the days next to it (Bike-to-work week starts the 22nd).
    notNaming: [/\bJuniper\b/i, /\bBasil\b/i, /\bnoon\b/i, /\b2:30\b/, 22, 24],
  })
  const mail = await mailbox(app)
  expect(changes(mail), 'no mail moved, starred or labelled').toEqual([])
  expect(written(mail).length, 'no message sent').toBe(0)
})
