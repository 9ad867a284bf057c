/**
 * Helpers shared by the Inbox tasks (not a task file: only *.task.ts files are tasks). Checks
 * parse `await app.state()` with the app's own schema and compare what changed; solutions act
 * through `ui` on the ids listed in fixtures/apps/inbox/README.md.
 */
import { normalizeText, type SolutionContext } from 'agentest'
import { buildSeed } from '../../fixtures/apps/inbox/seeds.ts'
import { InboxFinish, type Message } from '../../fixtures/apps/inbox/state.ts'
// The Inbox's kit: its seeds checked at load, and its mail as the gate's hedging candidates.
import '../../fixtures/apps/inbox/kit.ts'

/** This task's mailbox: the Inbox's `/finish` answer, parsed (a wrong shape fails loudly). */
export async function mailbox(app: { state(): Promise<unknown> }): Promise<InboxFinish> {
  return InboxFinish.parse(await app.state())
}

/**
 * A seeded message's id, checked against the seed when the task loads: `seeded('default', 'm4',
 * 'Your flight confirmation')` throws if m4 of that seed no longer has that subject.
 */
export function seeded(seed: string, id: string, subjectStart: string): string {
  const message = buildSeed(seed)?.messages.find((m) => m.id === id)
  if (!message?.subject.startsWith(subjectStart)) {
    throw new Error(`tasks/inbox: seed "${seed}" has no message ${id} "${subjectStart}..." (found: ${message ? `"${message.subject}"` : 'none'})`)
  }
  return id
}

/**
 * What the task did to the messages that were there, besides reading them: each change of
 * folder, star or labels as one line, `m2 folder: inbox -> archive`, `m3 starred: false -> true`,
 * `m4 labels: [] -> [travel]`, in message order. Opening a message (read, opened) is not a change.
 */
export function changes(mail: InboxFinish): string[] {
  const after = new Map(mail.final.messages.map((m) => [m.id, m]))
  const out: string[] = []
  for (const before of mail.initial.messages) {
    const now = after.get(before.id)
    if (!now) {
      out.push(`${before.id} removed`)
      continue
    }
    if (now.folder !== before.folder) out.push(`${before.id} folder: ${before.folder} -> ${now.folder}`)
    if (now.starred !== before.starred) out.push(`${before.id} starred: ${before.starred} -> ${now.starred}`)
    if (now.labels.join(',') !== before.labels.join(',')) out.push(`${before.id} labels: [${before.labels.join(', ')}] -> [${now.labels.join(', ')}]`)
  }
  return out
}

/** Messages written during the task (replies and new messages), oldest first. */
export function written(mail: InboxFinish): Message[] {
  const before = new Set(mail.initial.messages.map((m) => m.id))
  return mail.final.messages.filter((m) => !before.has(m.id))
}

/** Addresses of a message's recipients, lower case, in order. */
export function recipients(message: Message | undefined): string[] {
  return message?.to.map((p) => p.email.toLowerCase()) ?? []
}

/** Whether `text` holds `sentence`, ignoring case, spacing, typography and a final full stop. */
export function says(text: string | undefined, sentence: string): boolean {
  const clean = (s: string) => normalizeText(s).trim().replace(/[.!]+$/, '')
  return clean(text ?? '').includes(clean(sentence))
}

/** The day of the Q4 planning kickoff, Tuesday, September 23, however an answer writes it. */
export const KICKOFF_DAY = /\bTue(s|sday)?\b|\bSep(t|tember)?\.?\s*23\b|\b23(rd)?\s+Sep|\b0?9\/23\b|-09-23\b/i

// ---------------------------------------------------------------------------------------------
// Moves for solutions (each click or key is a recorded step)

type Ui = Pick<SolutionContext, 'ui'>

/** Types a search into the header's box and submits it. */
export async function searchMail({ ui }: Ui, query: string): Promise<void> {
  await ui.fill('#search-input', query)
  await ui.press('Enter')
}

/** Opens a folder from the sidebar: inbox, archive, trash, sent (or starred). */
export async function openFolder({ ui }: Ui, folder: 'inbox' | 'archive' | 'trash' | 'sent' | 'starred'): Promise<void> {
  await ui.click(`#folder-${folder}`)
}

/** Opens a message from the list on screen (its row must be on the page). */
export async function openMessage({ ui }: Ui, id: string): Promise<void> {
  await ui.click(`#open-${id}`)
}

/** The ids of the rows of the list on screen, top to bottom. */
export async function rowIds({ ui }: Ui): Promise<string[]> {
  const ids: string[] = []
  for (const row of await ui.locator('[data-testid="message-row"]').all()) ids.push((await row.getAttribute('data-id')) ?? '')
  return ids
}

/** Whether a row of the list on screen shows a star. */
export async function rowStarred({ ui }: Ui, id: string): Promise<boolean> {
  return (await ui.locator(`#row-${id}`).getAttribute('data-starred')) === 'true'
}

/** On a message page: Reply, type the body, Send. */
export async function replyWith({ ui }: Ui, body: string, send = true): Promise<void> {
  await ui.click('#reply')
  await ui.fill('#reply-body', body)
  if (send) await ui.click('#reply-send')
}

/** Compose a new message and send it. */
export async function composeMail({ ui }: Ui, message: { to: string; subject: string; body: string }): Promise<void> {
  await ui.click('#compose-link')
  await ui.fill('#compose-to', message.to)
  if (message.subject) await ui.fill('#compose-subject', message.subject)
  await ui.fill('#compose-body', message.body)
  await ui.click('#compose-send')
}

/** The sender's address as a message page shows it ("Sam Whitfield <sam@...>" -> "sam@..."). */
export async function senderAddress({ ui }: Ui): Promise<string> {
  const from = await ui.text('#message-from')
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from.trim()
  if (!address.includes('@')) throw new Error(`no address in "${from}"`)
  return address
}
