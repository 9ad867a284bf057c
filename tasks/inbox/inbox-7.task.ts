import { agentTest, expectAnswer, type SolutionContext } from 'agentest'
import { changes, KICKOFF_DAY, mailbox, openMessage, rowIds, searchMail, seeded, written } from './support.ts'

// In the busy mailbox Priya's first invite (m3: 3:00 PM, Cedar Room) was followed by an update
// (m16, newer): same Tuesday, now 2:30 PM in the Juniper Room on the 4th floor.
const INVITE = seeded('busy', 'm3', 'Q4 planning kickoff')
const UPDATE = seeded('busy', 'm16', 'Re: Q4 planning kickoff')

/** Reads the update's day, start time and room off its page. */
async function readUpdate({ ui }: SolutionContext): Promise<string> {
  const body = await ui.text('#message-body')
  const room = /moving to the (\w+ Room)/.exec(body)?.[1]
  const time = /start[^:]*:\s*(\d{1,2}:\d{2} [AP]M)/.exec(body)?.[1]
  const day = /\((\w+day, \w+ \d+)\)/.exec(body)?.[1]
  if (!room || !time || !day) throw new Error(`cannot read the update: ${body}`)
  return `${day} at ${time} in the ${room}.`
}

const test = agentTest({
  id: 'inbox-7',
  app: 'inbox',
  seed: 'busy',
  goal: 'When and where is the Q4 planning kickoff? Answer with just the day, the time and the room.',
  difficulty: 'medium',
  challenge_type: 'retrieval',
  max_steps: 15,
  solution: async (context) => {
    // Search shows both kickoff emails, newest first: the update is on top.
    await searchMail(context, 'kickoff')
    const [newest] = await rowIds(context)
    if (newest !== UPDATE) throw new Error(`expected the update ${UPDATE} first, got ${newest}`)
    await openMessage(context, newest)
    return readUpdate(context)
  },
  alternatives: {
    'from the inbox list': async (context) => {
      await openMessage(context, UPDATE)
      return readUpdate(context)
    },
  },
  near_misses: {
    'the original invite': async (context) => {
      await openMessage(context, INVITE)
      return 'Tuesday, September 23 at 3:00 PM in the Cedar Room.'
    },
    'both versions': async () => 'Tuesday, September 23, either 3:00 PM in the Cedar Room or 2:30 PM in the Juniper Room.',
    'new room old time': async () => 'Tuesday, September 23 at 3:00 PM in the Juniper Room.',
  },
})

test('gives the updated day, time and room', async ({ run, app, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, {
    what: 'Tuesday, September 23 at 2:30 PM in the Juniper Room',
    names: [KICKOFF_DAY, /\b2:30\b|\b14:30\b/, /\bJuniper\b/i],
    // The first invite's room and time, the 1:1 and dentist times, and the days next to it.
    notNaming: [/\bCedar\b/i, /\b3(:00)?\s*p\.?m\b|\b15:00\b/i, /\b11:00\b/, /\b8:15\b/, 22, 24],
  })
  const mail = await mailbox(app)
  expect(changes(mail), 'no mail moved, starred or labelled').toEqual([])
  expect(written(mail).length, 'no message sent').toBe(0)
})
