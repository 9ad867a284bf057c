import { agentTest, type SolutionContext } from 'agentest'
import { PEOPLE } from '../../fixtures/apps/inbox/seeds.ts'
import { changes, mailbox, openFolder, rowIds, rowStarred, searchMail, seeded, written } from './support.ts'

// Priya Raman's mail: m3 and m7 in the Inbox (m7 is already starred) and m12 in the Archive.
// Priya Shah (m9, an invoice from another company) is someone else.
const INBOX_UNSTARRED = seeded('default', 'm3', 'Q4 planning kickoff')
const ALREADY_STARRED = seeded('default', 'm7', 'Re: design review notes')
const ARCHIVED = seeded('default', 'm12', 'Photos from the summer offsite')
const OTHER_PRIYA = seeded('default', 'm9', 'Invoice #2291')

/** Clicks the stars of these rows, in the Inbox and then the Archive, whatever they show. */
async function clickStars(context: SolutionContext, inbox: readonly string[], archive: readonly string[]): Promise<void> {
  for (const id of inbox) await context.ui.click(`#star-${id}`)
  if (archive.length === 0) return
  await openFolder(context, 'archive')
  for (const id of archive) await context.ui.click(`#star-${id}`)
}

const test = agentTest({
  id: 'inbox-3',
  app: 'inbox',
  goal: 'Star every email Priya Raman has sent me, wherever it is in my mailbox (not only the Inbox).',
  difficulty: 'medium',
  challenge_type: 'action',
  max_steps: 20,
  solution: (context) => clickStars(context, [INBOX_UNSTARRED], [ARCHIVED]),
  alternatives: {
    // Search finds her mail in every folder; star the rows that are not starred yet.
    'by search': async (context) => {
      await searchMail(context, 'Priya Raman')
      for (const id of await rowIds(context)) if (!(await rowStarred(context, id))) await context.ui.click(`#star-${id}`)
    },
  },
  near_misses: {
    'the inbox only': (context) => clickStars(context, [INBOX_UNSTARRED], []),
    'every star clicked': (context) => clickStars(context, [INBOX_UNSTARRED, ALREADY_STARRED], [ARCHIVED]),
    'the other priya too': (context) => clickStars(context, [INBOX_UNSTARRED, OTHER_PRIYA], [ARCHIVED]),
  },
})

test("stars all of Priya Raman's mail and nothing else", async ({ run, app, expect }) => {
  await run()
  const mail = await mailbox(app)
  const hers = mail.final.messages.filter((m) => m.from.email === PEOPLE.priya.email)
  expect(hers.filter((m) => !m.starred).map((m) => m.id), "none of Priya Raman's messages is left unstarred").toEqual([])
  expect(changes(mail), 'only her two unstarred messages changed, and only their star').toEqual([`${INBOX_UNSTARRED} starred: false -> true`, `${ARCHIVED} starred: false -> true`])
  expect(written(mail).length, 'no message sent').toBe(0)
})
