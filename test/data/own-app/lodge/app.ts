import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { diffJson } from '../../../../fixtures/apps/kit/diff.ts'
import { SessionStore, type Session } from '../../../../fixtures/apps/kit/sessions.ts'
import { buildSeed, SEED_NAMES } from './seeds.ts'
import { LODGE_SCHEMA, LodgeConfigQuery, LodgeFinish, type Booking, type LodgeState, type Room } from './state.ts'

/**
 * Lakeside Lodge on Node's own `http`: rooms, a booking form and "My bookings", with the state
 * contract a harness needs (`/config`, `/finish`, `/health`) and a cookie session per browser.
 */
export const SESSION_COOKIE = 'lodge_session'

type LodgeSession = Session<LodgeState>

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)} - Lakeside Lodge</title>
<style>body{font:16px sans-serif;margin:2em}nav a{margin-right:1em}table{border-collapse:collapse}td,th{padding:.4em 1em;border-bottom:1px solid #ccc;text-align:left}label{display:block;margin:.6em 0}</style></head>
<body><nav><a id="nav-rooms" href="/">Rooms</a><a id="nav-bookings" href="/bookings">My bookings</a></nav><h1 id="title">${escape(title)}</h1>${body}</body></html>`
}

const roomLine = (room: Room) =>
  `<tr id="room-${room.id}"><td><a id="open-${room.id}" href="/room/${room.id}">${escape(room.name)}</a></td><td>${room.beds} bed${room.beds === 1 ? '' : 's'}</td><td data-price="${room.price}">$${room.price} a night</td></tr>`

function roomsPage(state: LodgeState): string {
  return page('Rooms', `<table id="rooms"><tr><th>Room</th><th>Beds</th><th>Price</th></tr>${state.rooms.map(roomLine).join('')}</table>`)
}

function roomPage(room: Room, problem: string | null): string {
  return page(
    `${room.name} room`,
    `<p id="room-beds">${room.beds} bed${room.beds === 1 ? '' : 's'}</p><p id="room-price">$${room.price} a night</p>
${problem ? `<p id="book-error" role="alert">${escape(problem)}</p>` : ''}
<form id="book-form" method="post" action="/book"><input type="hidden" name="room_id" value="${room.id}">
<label>Guest name <input id="guest" name="guest" autocomplete="off"></label>
<label>Check-in (YYYY-MM-DD) <input id="check-in" name="check_in" autocomplete="off"></label>
<label>Nights <input id="nights" name="nights" value="1" autocomplete="off"></label>
<button id="book" type="submit">Book</button></form>`,
  )
}

function bookingsPage(state: LodgeState, done: string | null): string {
  const name = (id: string) => state.rooms.find((room) => room.id === id)?.name ?? id
  const line = (b: Booking) =>
    `<tr id="booking-${b.id}" data-status="${b.status}"><td>${b.id}</td><td>${escape(name(b.room_id))}</td><td>${escape(b.guest)}</td><td>${b.check_in}</td><td>${b.nights}</td><td>${b.status}</td>
<td>${b.status === 'booked' ? `<form method="post" action="/cancel/${b.id}"><button id="cancel-${b.id}" type="submit">Cancel</button></form>` : ''}</td></tr>`
  const notice = done ? `<p id="notice">Booked: ${escape(done)}</p>` : ''
  const list = state.bookings.length
    ? `<table id="bookings"><tr><th>Booking</th><th>Room</th><th>Guest</th><th>Check-in</th><th>Nights</th><th>Status</th><th></th></tr>${state.bookings.map(line).join('')}</table>`
    : '<p id="no-bookings">You have no bookings.</p>'
  return page('My bookings', notice + list)
}

/** A booking form's fields, or what is wrong with them (one line, shown on the room's page). */
function readBooking(state: LodgeState, form: URLSearchParams): Omit<Booking, 'id' | 'status'> | string {
  const room = state.rooms.find((r) => r.id === form.get('room_id'))
  const guest = (form.get('guest') ?? '').trim()
  const checkIn = (form.get('check_in') ?? '').trim()
  const nights = Number(form.get('nights'))
  if (!room) return 'No such room.'
  if (!guest) return 'Enter the guest name.'
  if (!/^\d{4}-\d{2}-\d{2}$/.test(checkIn)) return 'Enter the check-in date as YYYY-MM-DD.'
  if (!Number.isInteger(nights) || nights < 1 || nights > 30) return 'Nights must be a whole number from 1 to 30.'
  return { room_id: room.id, guest, check_in: checkIn, nights }
}

function cookieOf(req: IncomingMessage): string | undefined {
  const pair = (req.headers.cookie ?? '').split(';').find((c) => c.trim().startsWith(`${SESSION_COOKIE}=`))
  return pair?.trim().slice(SESSION_COOKIE.length + 1)
}

function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => resolve(new URLSearchParams(body)))
    req.on('error', reject)
  })
}

/** The app's request handler, with its sessions in memory. */
export function lodgeHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const store = new SessionStore<LodgeState>(buildSeed)
  const setCookie = (res: ServerResponse, id: string) => res.setHeader('Set-Cookie', `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`)
  const send = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    // Every page shows live state: a cached one would show a stale list.
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers }).end(body)
  }
  const html = (res: ServerResponse, body: string, status = 200) => send(res, status, 'text/html; charset=utf-8', body)
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => send(res, status, 'application/json', JSON.stringify(body), headers)
  const redirect = (res: ServerResponse, to: string) => send(res, 303, 'text/plain', '', { Location: to })

  /** This browser's session; one browsing without /config gets a default one and its cookie. */
  const sessionFor = (req: IncomingMessage, res: ServerResponse): LodgeSession => {
    const known = store.get(cookieOf(req))
    if (known) return known
    const fresh = store.anonymous()
    setCookie(res, fresh.id)
    return fresh
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://lodge')
    const path = url.pathname
    if (path === '/health') return send(res, 200, 'text/plain', 'ok')
    if (path === '/config') {
      const query = LodgeConfigQuery.safeParse(Object.fromEntries(url.searchParams))
      if (!query.success) return send(res, 400, 'text/plain', `/config: ${query.error.issues[0]?.path.join('.')} is required`)
      const { task_id, run_id, seed } = query.data
      const session = store.configure({ task_id, run_id, seed })
      if (!session) return send(res, 400, 'text/plain', `/config: unknown seed "${seed}"; known seeds: ${SEED_NAMES.join(', ')}`)
      setCookie(res, session.id)
      return json(res, 200, { schema: LODGE_SCHEMA, task_id, run_id, seed, session: session.id })
    }
    if (path === '/finish') {
      const session = store.get(url.searchParams.get('session') ?? cookieOf(req))
      if (!session?.configured) return json(res, 409, { error: 'this browser session never called /config; call it first' })
      const { task_id, run_id, seed, initial, state } = session
      const body = LodgeFinish.parse({ schema: LODGE_SCHEMA, task_id, run_id, seed, initial, final: state, diff: diffJson(initial, state, { matchById: true }) })
      return json(res, 200, body, { 'X-Session-Id': session.id })
    }

    const session = sessionFor(req, res)
    const state = session.state
    if (req.method === 'POST' && path === '/book') {
      const form = await readBody(req)
      const booking = readBooking(state, form)
      if (typeof booking === 'string') {
        const room = state.rooms.find((r) => r.id === form.get('room_id')) ?? state.rooms[0]!
        return html(res, roomPage(room, booking), 422)
      }
      const id = `B-${1001 + state.bookings.length}`
      state.bookings.push({ id, ...booking, status: 'booked' })
      return redirect(res, `/bookings?done=${id}`)
    }
    const cancel = /^\/cancel\/(B-\d+)$/.exec(path)
    if (req.method === 'POST' && cancel) {
      const booking = state.bookings.find((b) => b.id === cancel[1])
      if (booking) booking.status = 'cancelled'
      return redirect(res, '/bookings')
    }
    if (req.method !== 'GET') return send(res, 404, 'text/plain', 'not found')
    state.location = { path, search: url.search }
    if (path === '/') return html(res, roomsPage(state))
    if (path === '/bookings') return html(res, bookingsPage(state, url.searchParams.get('done')))
    const room = state.rooms.find((r) => path === `/room/${r.id}`)
    if (room) return html(res, roomPage(room, null))
    return html(res, page('Not found', '<p>No such page.</p>'), 404)
  }
}

/** `{ url, port, close() }`, as the clone kit's command runner expects. */
export async function startLodge(options: { port?: number; host?: string } = {}): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const handler = lodgeHandler()
  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => send500(res, error))
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

function send500(res: ServerResponse, error: unknown): void {
  if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' })
  res.end(`lodge: ${error instanceof Error ? error.message : String(error)}`)
}
