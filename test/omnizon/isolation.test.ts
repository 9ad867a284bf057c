import { describe, expect, it } from 'vitest'
import { startOmnizon } from '../../fixtures/apps/omnizon/index.ts'
import { Client } from './client.ts'

/** A fixed little shopping session touching most of the state. */
async function scenario(c: Client): Promise<string> {
  await c.config('task_id=det-1&run_id=run-7&seed=past-orders')
  await c.get('/')
  await c.request('POST', '/popup/dismiss', {}, 'application/json')
  await c.get('/search?q=automatic+espresso+machine')
  await c.get('/search?q=automatic+espresso+machine&sort=price-asc')
  await c.get('/product/p076')
  await c.post('/cart/add', { product_id: 'p076', quantity: '2' })
  await c.post('/cart/add', { product_id: 'p028', quantity: '1' })
  await c.post('/cart/update', { product_id: 'p028', quantity: '4' })
  await c.post('/checkout/card', { holder: 'Jane Doe', number: '4000 1234 5678 9010', exp_month: '9', exp_year: '2028', cvc: '777' })
  await c.post('/checkout/place', { card_id: 'card-3', delivery: '2025-07-18' })
  await c.post('/buy-now', { product_id: 'p001', quantity: '1' })
  await c.post('/checkout/place', { buy_now: 'p001', qty: '1', card_id: 'card-1', delivery: '2025-07-21' })
  await c.post('/orders/cancel', { order_id: 'OZ-1002' })
  await c.get('/orders')
  return (await c.finishText()).text
}

describe('determinism', () => {
  it('gives byte-identical /finish JSON for the same actions, in one server and across servers', async () => {
    const a = await startOmnizon()
    const b = await startOmnizon()
    try {
      const first = await scenario(new Client(a.url))
      const second = await scenario(new Client(a.url))
      const third = await scenario(new Client(b.url))
      expect(second).toBe(first)
      expect(third).toBe(first)
      const fin = JSON.parse(first)
      expect(fin.final.orders.map((o: { id: string; status: string }) => `${o.id}:${o.status}`)).toEqual([
        'OZ-1001:placed',
        'OZ-1002:cancelled',
        'OZ-1003:placed',
        'OZ-1004:placed',
        'OZ-1005:placed',
      ])
      expect(fin.final.searches).toEqual(['automatic espresso machine'])
      expect(fin.diff.map((d: { op: string; path: string }) => `${d.op} ${d.path}`)).toEqual([
        'added cards[2]',
        'changed location.path',
        'changed orders[1].status',
        'added orders[3]',
        'added orders[4]',
        'changed popup.dismissed',
        'added searches[0]',
        'added viewed_products[0]',
      ])
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe('isolation', () => {
  it('keeps eight concurrent sessions apart', async () => {
    const srv = await startOmnizon()
    try {
      const products = ['p001', 'p012', 'p028', 'p050', 'p061', 'p076', 'p100', 'p150']
      const results = await Promise.all(
        products.map(async (pid, i) => {
          const c = new Client(srv.url)
          await c.config(`task_id=iso-${i}&run_id=r${i}${i % 2 ? '&seed=past-orders' : ''}`)
          for (let k = 0; k < 3; k++) {
            await c.get(`/product/${pid}`)
            await c.post('/cart/add', { product_id: pid, quantity: String(i + 1) })
            await c.get(`/search?q=item${i}`)
          }
          if (i % 3 === 0) await c.post('/checkout/place', { card_id: 'card-2', delivery: '2025-07-17' })
          if (i % 3 === 1) await c.request('POST', '/popup/dismiss', {}, 'application/json')
          return { i, pid, fin: await c.finish() }
        }),
      )
      for (const { i, pid, fin } of results) {
        expect(fin.task_id).toBe(`iso-${i}`)
        expect(fin.final.viewed_products).toEqual([pid, pid, pid])
        expect(fin.final.searches).toEqual([`item${i}`, `item${i}`, `item${i}`])
        const seeded = i % 2 ? 3 : 0
        if (i % 3 === 0) {
          expect(fin.final.cart).toEqual([])
          expect(fin.final.orders).toHaveLength(seeded + 1)
          expect(fin.final.orders.at(-1)?.items).toEqual([expect.objectContaining({ product_id: pid, quantity: Math.min(30, 3 * (i + 1)) })])
        } else {
          expect(fin.final.cart).toEqual([expect.objectContaining({ product_id: pid, quantity: Math.min(30, 3 * (i + 1)) })])
          expect(fin.final.orders).toHaveLength(seeded)
        }
        expect(fin.final.popup.dismissed).toBe(i % 3 === 1)
      }
    } finally {
      await srv.close()
    }
  })

  it('frees the port on close, even with keep-alive connections open', async () => {
    const srv = await startOmnizon()
    await fetch(`${srv.url}/`, { headers: { connection: 'keep-alive' } }).then((r) => r.text())
    const t0 = Date.now()
    await srv.close()
    expect(Date.now() - t0).toBeLessThan(2000)
    const again = await startOmnizon({ port: srv.port })
    expect(again.url).toBe(srv.url)
    await again.close()
  })
})
