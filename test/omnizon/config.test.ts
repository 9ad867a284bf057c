import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OMNIZON_NOW, OMNIZON_SCHEMA } from '../../fixtures/apps/omnizon/state.ts'
import { startOmnizon, type OmnizonServer } from '../../fixtures/apps/omnizon/index.ts'
import { Client } from './client.ts'

let srv: OmnizonServer
beforeAll(async () => {
  srv = await startOmnizon()
})
afterAll(async () => {
  await srv.close()
})

async function configError(query: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${srv.url}/config?${query}`)
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
}

describe('/config', () => {
  it('names a missing task_id in one plain-text line', async () => {
    const r = await configError('run_id=r1')
    expect(r.status).toBe(400)
    expect(r.type).toMatch(/^text\/plain/)
    expect(r.text).toBe('/config: task_id is required')
  })

  it('names a missing or empty run_id', async () => {
    expect((await configError('task_id=t1')).text).toBe('/config: run_id is required')
    expect((await configError('task_id=t1&run_id=')).text).toBe('/config: run_id is required')
    expect((await configError('')).text).toBe('/config: task_id is required')
  })

  it('rejects a bad remove_popup', async () => {
    const r = await configError('task_id=t&run_id=r&remove_popup=yes')
    expect(r.status).toBe(400)
    expect(r.text).toBe('/config: remove_popup must be "true" or "false", got "yes"')
    expect(r.text.split('\n')).toHaveLength(1)
  })

  it('rejects an unknown seed, listing the known ones', async () => {
    const r = await configError('task_id=t&run_id=r&seed=nope')
    expect(r.status).toBe(400)
    expect(r.text).toBe('/config: unknown seed "nope"; known seeds: default, past-orders')
  })

  it('answers JSON and sets an HttpOnly, SameSite=Lax session cookie on path /', async () => {
    const res = await fetch(`${srv.url}/config?task_id=t1&run_id=r1`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ schema: OMNIZON_SCHEMA, task_id: 't1', run_id: 'r1' })
    expect(body.session).toMatch(/^[0-9a-f-]{36}$/)
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('omnizon_session='))
    expect(cookie).toBeDefined()
    expect(cookie).toContain(`omnizon_session=${body.session}`)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
  })

  it('resets the session: a second /config starts from the seed again', async () => {
    const c = new Client(srv.url)
    const first = await c.config('task_id=t&run_id=r')
    await c.post('/cart/add', { product_id: 'p001', quantity: '1' })
    expect((await c.state()).cart).toHaveLength(1)
    const second = await c.config('task_id=t&run_id=r2')
    expect(second.session).not.toBe(first.session)
    const fin = await c.finish()
    expect(fin.run_id).toBe('r2')
    expect(fin.final.cart).toEqual([])
    expect(fin.diff).toEqual([])
  })
})

describe('/finish', () => {
  const NEVER = 'this browser session never called /config?task_id=...&run_id=...; call it first'

  it('answers 409 without a session cookie', async () => {
    const res = await fetch(`${srv.url}/finish`)
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ error: NEVER })
  })

  it('answers 409 for an unknown session', async () => {
    const res = await fetch(`${srv.url}/finish`, { headers: { cookie: 'omnizon_session=nope' } })
    expect(res.status).toBe(409)
  })

  it('answers 409 for a person who browsed without /config, whose pages still work', async () => {
    const c = new Client(srv.url)
    const home = await c.get('/')
    expect(home.status).toBe(200)
    expect(c.cookie).toMatch(/^omnizon_session=/)
    const add = await c.post('/cart/add', { product_id: 'p010', quantity: '2' })
    expect(add.status).toBe(200)
    expect(add.text).toContain('id="cart-line-p010"')
    const fin = await c.finishText()
    expect(fin.status).toBe(409)
    expect(JSON.parse(fin.text)).toEqual({ error: NEVER })
  })

  it('answers the untouched default state right after /config', async () => {
    const c = new Client(srv.url)
    await c.config('task_id=t-default&run_id=r-default')
    const fin = await c.finish()
    expect(fin.schema).toBe(OMNIZON_SCHEMA)
    expect(fin.task_id).toBe('t-default')
    expect(fin.diff).toEqual([])
    expect(fin.initial).toEqual(fin.final)
    const s = fin.initial
    expect(s.cart).toEqual([])
    expect(s.orders).toEqual([])
    expect(s.cards).toHaveLength(2)
    expect(s.selected_card_id).toBe('card-1')
    expect(s.address.city).toBe('Seattle')
    expect(s.searches).toEqual([])
    expect(s.viewed_products).toEqual([])
    expect(s.location).toEqual({ path: '/', search: '' })
    expect(s.popup).toEqual({ enabled: true, dismissed: false })
  })

  it('also finds the session from ?session=', async () => {
    const c = new Client(srv.url)
    const { session } = await c.config('task_id=t&run_id=r')
    const res = await fetch(`${srv.url}/finish?session=${session}`)
    expect(res.status).toBe(200)
  })

  it('seeds past-orders with three placed orders on distinct dates before the clock', async () => {
    const c = new Client(srv.url)
    await c.config('task_id=t&run_id=r&seed=past-orders')
    const s = await c.state()
    expect(s.orders.map((o) => o.id)).toEqual(['OZ-1001', 'OZ-1002', 'OZ-1003'])
    expect(s.orders.every((o) => o.status === 'placed')).toBe(true)
    const dates = s.orders.map((o) => o.placed_at)
    expect(new Set(dates).size).toBe(3)
    for (const d of dates) expect(Date.parse(d)).toBeLessThan(Date.parse(OMNIZON_NOW))
    expect([...dates].sort()).toEqual(dates)
  })
})

describe('location and pop-up', () => {
  it('records the last HTML page load, not /config, /finish, images or POSTs', async () => {
    const c = new Client(srv.url)
    await c.config('task_id=t&run_id=r&remove_popup=true')
    await c.get('/search?q=desk&sort=price-asc')
    expect((await c.state()).location).toEqual({ path: '/search', search: '?q=desk&sort=price-asc' })
    await c.get('/images/p001.svg')
    await c.post('/cart/add', { product_id: 'p001', quantity: '1' }) // redirects to /cart (an HTML page load)
    expect((await c.state()).location).toEqual({ path: '/cart', search: '?added=p001' })
    await c.get('/account')
    await c.finish()
    expect((await c.state()).location).toEqual({ path: '/account', search: '' })
  })

  it('shows the pop-up until dismissed, and records the dismissal', async () => {
    const c = new Client(srv.url)
    await c.config('task_id=t&run_id=r')
    const home = await c.get('/')
    expect(home.text).toContain('id="promo-popup"')
    expect(home.text).toContain('role="dialog"')
    expect(home.text).toContain('aria-modal="true"')
    expect((await c.get('/cart')).text).toContain('id="promo-popup"')
    const res = await c.request('POST', '/popup/dismiss', {}, 'application/json')
    expect(res.status).toBe(200)
    expect((await c.get('/')).text).not.toContain('id="promo-popup"')
    const fin = await c.finish()
    expect(fin.final.popup).toEqual({ enabled: true, dismissed: true })
    expect(fin.diff).toContainEqual({ op: 'changed', path: 'popup.dismissed', before: false, after: true })
  })

  it('dismisses without script too: the form posts and returns to the page', async () => {
    const c = new Client(srv.url)
    await c.config('task_id=t&run_id=r')
    const r = await c.post('/popup/dismiss', { return: '/search?q=watch' })
    expect(r.url).toBe('/search?q=watch')
    expect(r.text).not.toContain('id="promo-popup"')
  })

  it('is switched off by remove_popup=true', async () => {
    const c = new Client(srv.url)
    await c.config('task_id=t&run_id=r&remove_popup=true')
    expect((await c.get('/')).text).not.toContain('id="promo-popup"')
    expect((await c.state()).popup).toEqual({ enabled: false, dismissed: false })
  })
})
