import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startInbox, type InboxServer } from '../../fixtures/apps/inbox/index.ts'
import { INBOX_NOW, INBOX_SCHEMA, InboxFinish, type InboxState, type Message } from '../../fixtures/apps/inbox/state.ts'

interface Reply {
  status: number
  /** Path and query of the last response (after redirects). */
  url: string
  text: string
  headers: Headers
}

/** A cookie-keeping HTTP client for one browser session of the Inbox, following redirects by hand. */
class Client {
  cookie: string | undefined

  constructor(readonly base: string) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string | string[]>, accept = 'text/html'): Promise<Reply> {
    let url = new URL(path, this.base)
    let body: string | undefined
    if (form) {
      const params = new URLSearchParams()
      for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one)
      body = params.toString()
    }
    for (let hop = 0; hop < 6; hop++) {
      const headers: Record<string, string> = { accept }
      if (this.cookie) headers.cookie = this.cookie
      if (hop === 0 && body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
      const res = await fetch(url, { method: hop === 0 ? method : 'GET', headers, body: hop === 0 ? body : undefined, redirect: 'manual' })
      for (const c of res.headers.getSetCookie()) {
        const m = /^inbox_session=([^;]*)/.exec(c)
        if (m) this.cookie = `inbox_session=${m[1]}`
      }
      const location = res.headers.get('location')
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer()
        url = new URL(location, url)
        continue
      }
      return { status: res.status, url: url.pathname + url.search, text: await res.text(), headers: res.headers }
    }
    throw new Error(`too many redirects from ${path}`)
  }

  get(path: string): Promise<Reply> {
    return this.request('GET', path)
  }

  post(path: string, form: Record<string, string | string[]> = {}): Promise<Reply> {
    return this.request('POST', path, form)
  }

  async config(seed = 'default', task = 'inbox-test'): Promise<{ schema: string; seed: string; session: string }> {
    const r = await this.request('GET', `/config?task_id=${task}&run_id=run-1&seed=${seed}`, undefined, 'application/json')
    if (r.status !== 200) throw new Error(`/config answered ${r.status}: ${r.text}`)
    return JSON.parse(r.text)
  }

  async finishText(): Promise<string> {
    const r = await this.request('GET', '/finish', undefined, 'application/json')
    if (r.status !== 200) throw new Error(`/finish answered ${r.status}: ${r.text}`)
    return r.text
  }

  async finish(): Promise<InboxFinish> {
    return InboxFinish.parse(JSON.parse(await this.finishText()))
  }

  async state(): Promise<InboxState> {
    return (await this.finish()).final
  }
}

function msg(state: InboxState, id: string): Message {
  const m = state.messages.find((x) => x.id === id)
  if (!m) throw new Error(`no message ${id}`)
  return m
}

/** The diff as "op path" lines, for compact comparisons. */
async function diffLines(c: Client): Promise<string[]> {
  return (await c.finish()).diff.map((d) => `${d.op} ${d.path}`)
}

function hasId(html: string, id: string): boolean {
  return html.includes(` id="${id}"`)
}

let srv: InboxServer
beforeAll(async () => {
  srv = await startInbox()
})
afterAll(async () => {
  await srv.close()
})

describe('harness endpoints', () => {
  it('answers /health with 200 "ok" and sets no cookie', async () => {
    const res = await fetch(`${srv.url}/health`)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('ok')
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('refuses a /config without task_id or run_id, or with an unknown seed, in one plain line', async () => {
    const ask = async (q: string) => {
      const res = await fetch(`${srv.url}/config?${q}`)
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
    }
    expect(await ask('run_id=r')).toMatchObject({ status: 400, text: '/config: task_id is required' })
    expect(await ask('task_id=t&run_id=')).toMatchObject({ status: 400, text: '/config: run_id is required' })
    const unknown = await ask('task_id=t&run_id=r&seed=nope')
    expect(unknown).toMatchObject({ status: 400, text: '/config: unknown seed "nope"; known seeds: default, busy' })
    expect(unknown.type).toMatch(/^text\/plain/)
  })

  it('starts a session: JSON answer, an HttpOnly SameSite=Lax cookie, other parameters ignored', async () => {
    const res = await fetch(`${srv.url}/config?task_id=t1&run_id=r1&seed=busy&remove_popup=true`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ schema: INBOX_SCHEMA, task_id: 't1', run_id: 'r1', seed: 'busy' })
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('inbox_session='))
    expect(cookie).toContain(`inbox_session=${body.session}`)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
  })

  it('answers /finish with 409 for a browser that never called /config, and reads ?session=', async () => {
    const stranger = new Client(srv.url)
    await stranger.get('/inbox') // browsing by hand makes an unconfigured session
    const r = await stranger.request('GET', '/finish', undefined, 'application/json')
    expect(r.status).toBe(409)
    expect(JSON.parse(r.text).error).toMatch(/never called \/config/)
    const c = new Client(srv.url)
    const { session } = await c.config()
    const bySession = await fetch(`${srv.url}/finish?session=${session}`)
    expect(bySession.status).toBe(200)
    expect(InboxFinish.parse(await bySession.json()).task_id).toBe('inbox-test')
  })

  it('gives a parseable InboxFinish with an empty diff right after /config', async () => {
    const c = new Client(srv.url)
    await c.config()
    const f = await c.finish()
    expect(f).toMatchObject({ schema: INBOX_SCHEMA, task_id: 'inbox-test', run_id: 'run-1', seed: 'default', diff: [] })
    expect(f.final).toEqual(f.initial)
  })

  it('resets the session on a second /config, from the seed it names', async () => {
    const c = new Client(srv.url)
    const first = await c.config()
    await c.post('/message/m2/move', { folder: 'archive' })
    await c.get('/search?q=lease')
    expect((await c.finish()).diff.length).toBeGreaterThan(0)
    const second = await c.config('busy')
    expect(second.session).not.toBe(first.session)
    const f = await c.finish()
    expect(f.diff).toEqual([])
    expect(f.seed).toBe('busy')
    expect(f.final.messages).toHaveLength(30)
    expect(msg(f.final, 'm2').folder).toBe('inbox')
    expect(f.final.searches).toEqual([])
  })
})

describe('seeds', () => {
  it('default: 15 messages, 11 in the Inbox (4 unread), 1 archived, 2 in the Trash, 1 sent', async () => {
    const c = new Client(srv.url)
    await c.config()
    const s = await c.state()
    const count = (folder: string) => s.messages.filter((m) => m.folder === folder).length
    expect(s.messages.map((m) => m.id)).toEqual(Array.from({ length: 15 }, (_, i) => `m${i + 1}`))
    expect([count('inbox'), count('archive'), count('trash'), count('sent')]).toEqual([11, 1, 2, 1])
    expect(s.messages.filter((m) => !m.read).map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm10'])
    expect(s.messages.every((m) => m.date < INBOX_NOW)).toBe(true)
    expect(s).toMatchObject({ searches: [], opened: [], location: { path: '/', search: '' } })
  })

  it('busy: the default messages with the same ids, then m16..m30', async () => {
    const a = new Client(srv.url)
    const b = new Client(srv.url)
    await a.config('default')
    await b.config('busy')
    const d = await a.state()
    const busy = await b.state()
    expect(busy.messages).toHaveLength(30)
    expect(busy.messages.slice(0, 15)).toEqual(d.messages)
    expect(busy.messages.filter((m) => m.folder === 'inbox')).toHaveLength(22)
    expect(msg(busy, 'm16')).toMatchObject({ in_reply_to: 'm3', subject: 'Re: Q4 planning kickoff' })
    expect(msg(busy, 'm16').body).toContain('Juniper Room')
  })
})

describe('pages', () => {
  it('redirects / to the Inbox, lists it newest first and records the location', async () => {
    const c = new Client(srv.url)
    await c.config()
    const r = await c.get('/')
    expect(r.url).toBe('/inbox')
    const rows = [...r.text.matchAll(/id="row-(m\d+)"/g)].map((m) => m[1])
    expect(rows).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11'])
    for (const id of ['nav-logo', 'search-input', 'search-submit', 'compose-link', 'folder-inbox', 'folder-inbox-count', 'folder-archive', 'folder-trash', 'folder-sent', 'folder-starred', 'label-link-travel', 'list-title', 'message-list', 'select-all', 'bulk-archive', 'bulk-delete', 'bulk-read', 'bulk-unread', 'select-m3', 'star-m3', 'open-m3']) {
      expect(hasId(r.text, id), id).toBe(true)
    }
    expect(hasId(r.text, 'bulk-inbox')).toBe(false)
    expect(r.text).toMatch(/id="star-m7"[^>]*aria-pressed="true"|aria-pressed="true"[^>]*id="star-m7"/)
    expect((await c.state()).location).toEqual({ path: '/inbox', search: '' })
  })

  it('shows list dates on the fixed clock: a time today, a day this year', async () => {
    const c = new Client(srv.url)
    await c.config()
    const html = (await c.get('/inbox')).text
    expect(html).toMatch(/id="row-m1"[\s\S]*?>8:05 AM</)
    expect(html).toMatch(/id="row-m9"[\s\S]*?>Sep 12</)
  })

  it('shows each folder with the buttons that apply to it', async () => {
    const c = new Client(srv.url)
    await c.config()
    const trash = (await c.get('/trash')).text
    expect(hasId(trash, 'row-m13') && hasId(trash, 'row-m14')).toBe(true)
    expect(hasId(trash, 'bulk-inbox')).toBe(true)
    expect(hasId(trash, 'bulk-delete')).toBe(false)
    const m13 = (await c.get('/message/m13')).text
    expect(['move-inbox', 'archive'].every((id) => hasId(m13, id))).toBe(true)
    expect(hasId(m13, 'delete')).toBe(false)
    const m1 = (await c.get('/message/m1')).text
    for (const id of ['archive', 'delete', 'star', 'mark-unread', 'reply', 'message-subject', 'message-from', 'message-to', 'message-date', 'message-body', 'label-add-work', 'label-add-personal', 'label-add-travel']) {
      expect(hasId(m1, id), id).toBe(true)
    }
    expect(m1).toContain('Thu, Sep 18, 2025, 8:05 AM')
    const m7 = (await c.get('/message/m7')).text
    expect(hasId(m7, 'label-remove-work') && !hasId(m7, 'label-add-work')).toBe(true)
  })

  it('answers an unknown message or page with 404', async () => {
    const c = new Client(srv.url)
    await c.config()
    expect((await c.get('/message/m99')).status).toBe(404)
    expect((await c.get('/nowhere')).status).toBe(404)
    expect((await c.get('/label/urgent')).status).toBe(404)
  })
})

describe('actions change the state as documented', () => {
  it('opening a message marks it read and records it in opened, repeats included', async () => {
    const c = new Client(srv.url)
    await c.config()
    await c.get('/message/m3')
    await c.get('/message/m3')
    const s = await c.state()
    expect(msg(s, 'm3').read).toBe(true)
    expect(s.opened).toEqual(['m3', 'm3'])
    expect(s.location).toEqual({ path: '/message/m3', search: '' })
    expect(await diffLines(c)).toEqual(['changed location.path', 'changed messages[m3].read', 'added opened[0]', 'added opened[1]'])
  })

  it('archives, deletes and moves back to the Inbox, returning to the folder the message was in', async () => {
    const c = new Client(srv.url)
    await c.config()
    const archived = await c.post('/message/m2/move', { folder: 'archive' })
    expect(archived.url).toBe('/inbox?done=archived')
    expect(archived.text).toContain('1 message archived.')
    expect(hasId(archived.text, 'row-m2')).toBe(false)
    const deleted = await c.post('/message/m5/move', { folder: 'trash' })
    expect(deleted.url).toBe('/inbox?done=trashed')
    const restored = await c.post('/message/m13/move', { folder: 'inbox' })
    expect(restored.url).toBe('/trash?done=inboxed')
    const s = await c.state()
    expect([msg(s, 'm2').folder, msg(s, 'm5').folder, msg(s, 'm13').folder]).toEqual(['archive', 'trash', 'inbox'])
    expect((await c.finish()).diff.filter((d) => d.path.endsWith('.folder'))).toEqual([
      { op: 'changed', path: 'messages[m2].folder', before: 'inbox', after: 'archive' },
      { op: 'changed', path: 'messages[m5].folder', before: 'inbox', after: 'trash' },
      { op: 'changed', path: 'messages[m13].folder', before: 'trash', after: 'inbox' },
    ])
    expect((await c.post('/message/m1/move', { folder: 'sent' })).status).toBe(400)
  })

  it('moves the checked rows at once, and changes nothing when none is checked', async () => {
    const c = new Client(srv.url)
    await c.config()
    const none = await c.post('/bulk', { action: 'archive', return: '/inbox' })
    expect(none.url).toBe('/inbox?done=none')
    expect((await c.finish()).diff.filter((d) => d.path.startsWith('messages'))).toEqual([])
    const r = await c.post('/bulk', { action: 'archive', ids: ['m2', 'm5', 'm10'], return: '/inbox?select=all' })
    expect(r.url).toBe('/inbox?done=archived&n=3')
    expect(r.text).toContain('3 messages archived.')
    await c.post('/bulk', { action: 'delete', ids: ['m9'], return: '/inbox' })
    await c.post('/bulk', { action: 'inbox', ids: ['m14'], return: '/trash' })
    await c.post('/bulk', { action: 'unread', ids: ['m4', 'm6'], return: '/inbox' })
    await c.post('/bulk', { action: 'read', ids: ['m1'], return: '/inbox' })
    const s = await c.state()
    expect(['m2', 'm5', 'm10', 'm9', 'm14'].map((id) => msg(s, id).folder)).toEqual(['archive', 'archive', 'archive', 'trash', 'inbox'])
    expect(['m4', 'm6', 'm1'].map((id) => msg(s, id).read)).toEqual([false, false, true])
    expect((await c.post('/bulk', { action: 'explode', ids: ['m1'] })).status).toBe(400)
  })

  it('toggles a star from a list row (back to the list) and from the message page (back to it)', async () => {
    const c = new Client(srv.url)
    await c.config()
    // A row's star submits the list form to its own route: the checkboxes ride along, ignored.
    const fromList = await c.post('/message/m3/star', { return: '/archive', ids: ['m1'] })
    expect(fromList.url).toBe('/archive?done=starred')
    const fromPage = await c.post('/message/m7/star', { return: '/message/m7' })
    expect(fromPage.url).toBe('/message/m7?done=unstarred')
    expect(fromPage.text).toContain('Star removed.')
    const evil = await c.post('/message/m4/star', { return: '//evil.example/' })
    expect(evil.url).toBe('/message/m4?done=starred')
    const s = await c.state()
    expect([msg(s, 'm3').starred, msg(s, 'm7').starred, msg(s, 'm4').starred, msg(s, 'm1').starred]).toEqual([true, false, true, false])
    const starred = (await c.get('/starred')).text
    expect([...starred.matchAll(/id="row-(m\d+)"/g)].map((m) => m[1])).toEqual(['m3', 'm4'])
  })

  it('adds and removes labels, keeping the fixed order', async () => {
    const c = new Client(srv.url)
    await c.config()
    await c.post('/message/m4/label', { label: 'travel' })
    const r = await c.post('/message/m4/label', { label: 'work' })
    expect(r.url).toBe('/message/m4?done=labelled')
    await c.post('/message/m4/label', { label: 'travel' }) // already there: no change
    await c.post('/message/m7/unlabel', { label: 'work' })
    const s = await c.state()
    expect(msg(s, 'm4').labels).toEqual(['work', 'travel'])
    expect(msg(s, 'm7').labels).toEqual([])
    expect((await c.post('/message/m4/label', { label: 'urgent' })).status).toBe(400)
    const travel = (await c.get('/label/travel')).text
    expect([...travel.matchAll(/id="row-(m\d+)"/g)].map((m) => m[1])).toEqual(['m4'])
  })

  it('marks a message unread from its page, back to its folder', async () => {
    const c = new Client(srv.url)
    await c.config()
    await c.get('/message/m4')
    const r = await c.post('/message/m4/read', { read: 'false' })
    expect(r.url).toBe('/inbox?done=unread')
    expect(msg(await c.state(), 'm4').read).toBe(false)
  })

  it('sends a reply to the sender as a Sent message with in_reply_to, and refuses an empty one', async () => {
    const c = new Client(srv.url)
    await c.config()
    const form = await c.get('/message/m1/reply')
    for (const id of ['reply-form', 'reply-to', 'reply-subject', 'reply-body', 'reply-send', 'quoted']) expect(hasId(form.text, id), id).toBe(true)
    const empty = await c.post('/message/m1/reply', { body: '   ' })
    expect(empty.status).toBe(422)
    expect(hasId(empty.text, 'reply-errors')).toBe(true)
    expect((await c.state()).messages).toHaveLength(15)
    const sent = await c.post('/message/m1/reply', { body: 'Confirmed, you will have them by Friday.\r\n' })
    expect(sent.url).toBe('/message/m16?done=sent')
    const s = await c.state()
    expect(msg(s, 'm16')).toEqual({
      id: 'm16',
      folder: 'sent',
      from: { name: 'Alex Morgan', email: 'alex.morgan@northwind.example' },
      to: [{ name: 'Daniel Okafor', email: 'daniel.okafor@northwind.example' }],
      subject: 'Re: Q3 vendor numbers for the budget review',
      body: 'Confirmed, you will have them by Friday.',
      date: INBOX_NOW,
      read: true,
      starred: false,
      labels: [],
      in_reply_to: 'm1',
    })
    // Replying to a reply does not stack "Re:"; the new message is listed in Sent first.
    await c.post('/message/m7/reply', { body: 'Sounds good.' })
    expect(msg(await c.state(), 'm17').subject).toBe('Re: design review notes')
    const sentList = (await c.get('/sent')).text
    expect([...sentList.matchAll(/id="row-(m\d+)"/g)].map((m) => m[1])).toEqual(['m17', 'm16', 'm15'])
    expect((await c.finish()).diff.filter((d) => d.op === 'added' && d.path.startsWith('messages')).map((d) => d.path)).toEqual(['messages[m16]', 'messages[m17]'])
  })

  it('composes a new message: names known addresses, keeps given names, refuses a bad address', async () => {
    const c = new Client(srv.url)
    await c.config()
    const bad = await c.post('/compose', { to: 'sam at northwind', subject: 'x', body: 'y' })
    expect(bad.status).toBe(422)
    expect(hasId(bad.text, 'compose-errors')).toBe(true)
    expect(bad.text).toContain('value="sam at northwind"')
    expect((await c.post('/compose', { to: ' ', subject: 'x', body: 'y' })).status).toBe(422)
    const ok = await c.post('/compose', { to: 'Sam.Whitfield@northwind.example; "Pat Lee" <pat@lee.example>', subject: '  Kickoff   room ', body: 'It is in the Cedar Room.' })
    expect(ok.url).toBe('/message/m16?done=sent')
    expect(ok.text).toContain('Message sent.')
    expect(msg(await c.state(), 'm16')).toMatchObject({
      folder: 'sent',
      to: [
        { name: 'Sam Whitfield', email: 'sam.whitfield@northwind.example' },
        { name: 'Pat Lee', email: 'pat@lee.example' },
      ],
      subject: 'Kickoff room',
      body: 'It is in the Cedar Room.',
      in_reply_to: null,
    })
  })

  it('searches every folder, records each new search as typed, and not the reloads after an action', async () => {
    const c = new Client(srv.url)
    await c.config()
    const r = await c.get('/search?q=Priya%20Raman')
    expect([...r.text.matchAll(/id="row-(m\d+)"/g)].map((m) => m[1])).toEqual(['m3', 'm7', 'm12'])
    expect(r.text).toContain('value="Priya Raman"')
    const lease = await c.get('/search?q=LEASE')
    expect([...lease.text.matchAll(/id="row-(m\d+)"/g)].map((m) => m[1])).toEqual(['m13'])
    expect(hasId(lease.text, 'bulk-inbox')).toBe(true)
    await c.post('/message/m3/star', { return: '/search?q=Priya%20Raman' }) // back to the results: not a new search
    await c.get('/search?q=Priya%20Raman&select=all')
    await c.get('/search?q=%20%20')
    const s = await c.state()
    expect(s.searches).toEqual(['Priya Raman', 'LEASE'])
    expect(s.location).toEqual({ path: '/search', search: '?q=%20%20' })
  })
})

describe('sessions', () => {
  it('keeps a second session isolated from the first', async () => {
    const a = new Client(srv.url)
    const b = new Client(srv.url)
    await a.config('default', 'task-a')
    await b.config('default', 'task-b')
    await a.post('/message/m2/move', { folder: 'archive' })
    await a.post('/message/m1/reply', { body: 'Yes.' })
    await a.get('/search?q=flight')
    const fa = await a.finish()
    const fb = await b.finish()
    expect(fa.task_id).toBe('task-a')
    expect(fb.task_id).toBe('task-b')
    expect(fb.diff).toEqual([])
    expect(msg(fb.final, 'm2').folder).toBe('inbox')
    expect(fb.final.messages).toHaveLength(15)
    expect(fa.final.messages).toHaveLength(16)
    // A browser without a cookie gets its own default mailbox, untouched by either.
    const c = new Client(srv.url)
    expect((await c.get('/inbox')).text).toContain('id="row-m2"')
  })

  it('gives byte-identical /finish JSON for the same actions, in one server and across servers', async () => {
    const scenario = async (c: Client) => {
      await c.config('busy', 'det')
      await c.get('/inbox')
      await c.get('/message/m16')
      await c.post('/bulk', { action: 'archive', ids: ['m2', 'm17'], return: '/inbox' })
      await c.post('/message/m13/move', { folder: 'inbox' })
      await c.post('/message/m4/label', { label: 'travel' })
      await c.post('/message/m3/star', { return: '/inbox' })
      await c.get('/search?q=kickoff')
      await c.post('/message/m1/reply', { body: 'Confirmed.' })
      await c.post('/compose', { to: 'sam.whitfield@northwind.example', subject: 'Room', body: 'Juniper Room' })
      return c.finishText()
    }
    const other = await startInbox()
    try {
      const first = await scenario(new Client(srv.url))
      expect(await scenario(new Client(srv.url))).toBe(first)
      expect(await scenario(new Client(other.url))).toBe(first)
      expect(InboxFinish.parse(JSON.parse(first)).diff.map((d) => `${d.op} ${d.path}`)).toEqual([
        'changed location.path',
        'changed location.search',
        'changed messages[m2].folder',
        'changed messages[m3].starred',
        'added messages[m4].labels[0]',
        'changed messages[m13].folder',
        'changed messages[m16].read',
        'changed messages[m17].folder',
        'added messages[m31]',
        'added messages[m32]',
        'added opened[0]',
        'added opened[1]',
        'added opened[2]',
        'added opened[3]',
        'added searches[0]',
      ])
    } finally {
      await other.close()
    }
  })
})

describe('the command', () => {
  it('prints its URL, serves /health, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'fixtures/apps/inbox/main.ts', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      let out = ''
      child.stdout.setEncoding('utf8')
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000)
        child.stdout.on('data', (chunk: string) => {
          out += chunk
          const m = /^inbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)
          if (m) {
            clearTimeout(timer)
            resolve(m[1]!)
          }
        })
      })
      expect(await (await fetch(`${url}/health`)).text()).toBe('ok')
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const [code] = await exited
      expect(code).toBe(0)
      await expect(fetch(`${url}/health`)).rejects.toThrow()
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
