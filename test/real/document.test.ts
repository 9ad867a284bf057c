import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { mappedPaths, pythonEquals, realDocument, runQuery, unreachable } from '../../fixtures/apps/omnizon/real/index.ts'
import { finish, line, order } from './omnizon-finish.ts'

const ROOT = join(import.meta.dirname, '../..')

/** A task that searched twice, bought a watch with a new card for the last date, and left two speakers in the cart. */
const SHOPPED = finish({
  searches: ['casio', 'speaker'],
  location: { path: '/confirmation', search: '?order=OZ-1001' },
  cart: [line('p069', 1, 29.95), line('p068', 2, 35.99)],
  orders: [
    order('OZ-1001', [line('p137', 1, 17.99)], {
      total: 23.98,
      card: { id: 'card-3', holder: 'Ada Byron', number: '4242424242424242', exp_month: 3, exp_year: 2030, cvc: '321' },
      delivery: { date: '2025-07-21', label: 'Monday, Jul 21' },
    }),
  ],
})

const query = (q: string, f = SHOPPED) => runQuery(realDocument(f), q)

describe("REAL's Omnizon document, built from agentest's /finish", () => {
  test('v1: orderDetailsDiff.added."0".order holds the order\'s lines, card and delivery as REAL writes them', () => {
    expect(query('orderDetailsDiff.added."0".order.cart')).toEqual({ value: [{ id: 'p137', quantity: 1, price: 17.99 }] })
    expect(query('orderDetailsDiff.added."0".order.selected_card')).toEqual({
      value: { cardName: 'Ada Byron', cardNumber: '4242 4242 4242 4242', month: '3', year: '2030', security_code: '321' },
    })
    expect(query('orderDetailsDiff.added."0".order.selected_delivery')).toEqual({ value: 'Monday, Jul 21' })
    // REAL's own style of query: a computed boolean.
    expect(query('length(orderDetailsDiff.added."0".order.cart[?quantity != `1`]) == `0`')).toEqual({ value: true })
  })

  test('v2: initialfinaldiff holds the orders, the cart lines added, the page and the last search', () => {
    expect(query('initialfinaldiff.added.order.orders."0"')).toEqual({ value: { items: [{ id: 'p137', quantity: 1, price: 17.99 }], total: 23.98, orderNumber: 'OZ-1001' } })
    expect(query('sort_by(values(initialfinaldiff.added.cart.cartDetails), &id)[].[id, quantity]')).toEqual({ value: [['p068', 2], ['p069', 1]] })
    expect(query('initialfinaldiff.updated.router.location')).toEqual({ value: { pathname: '/confirmation', search: '?order=OZ-1001' } })
    expect(query('initialfinaldiff.updated.filter.searchQuery')).toEqual({ value: 'speaker' })
  })

  test('a diff lists only what changed: no orders, cart lines, page change or search leave their parts out', () => {
    expect(realDocument(finish({}))).toEqual({ orderDetailsDiff: { added: {} }, initialfinaldiff: { added: {}, updated: {} } })
    // REAL's evaluator fails an eval whose query errors (length of nothing), as the check does.
    expect(query('length(orderDetailsDiff.added."0".order.cart)', finish({}))).toEqual({ error: expect.stringMatching(/length/) })
    expect(query('initialfinaldiff.updated.filter.searchQuery', finish({}))).toEqual({ value: null })
  })

  test('orders of the seed, and an order placed then cancelled, are not among those placed; keys count from "0"', () => {
    const seeded = order('OZ-1001', [line('p001')])
    const f = finish(
      { orders: [{ ...seeded, status: 'cancelled' }, order('OZ-1004', [line('p002')], { status: 'cancelled' }), order('OZ-1005', [line('p003')])] },
      { orders: [seeded] },
    )
    expect(runQuery(realDocument(f), 'keys(orderDetailsDiff.added)')).toEqual({ value: ['0'] })
    expect(runQuery(realDocument(f), 'orderDetailsDiff.added."0".order.cart[0].id')).toEqual({ value: 'p003' })
    expect(runQuery(realDocument(f), 'initialfinaldiff.added.order.orders."0".orderNumber')).toEqual({ value: 'OZ-1005' })
  })

  test('cart lines already in the cart at the start are not "added"', () => {
    const f = finish({ cart: [line('p001'), line('p002')] }, { cart: [line('p001')] })
    expect(runQuery(realDocument(f), 'initialfinaldiff.added.cart.cartDetails')).toEqual({ value: { '1': { id: 'p002', quantity: 1, price: 10 } } })
  })

  test('every value the document holds is a path of the layout, and every path of the layout is filled', () => {
    const leaves = (value: unknown, at: string): string[] => {
      if (Array.isArray(value)) return value.flatMap((item) => leaves(item, `${at}[]`))
      if (value && typeof value === 'object') {
        return Object.entries(value).flatMap(([key, inner]) => leaves(inner, at ? `${at}.${/^\d+$/.test(key) ? '<n>' : key}` : key))
      }
      return [at]
    }
    const built = [...new Set(leaves(realDocument(SHOPPED), ''))].sort()
    expect(built).toEqual(mappedPaths().map((p) => p.path).sort())
    // And each is a path a query may read.
    for (const path of built) expect(unreachable(path.replaceAll('<n>', '"0"').replaceAll('[]', '[0]')), path).toEqual([])
  })

  test('docs/bring-your-own.md\'s REAL section names every mapped path', () => {
    const doc = readFileSync(join(ROOT, 'docs/bring-your-own.md'), 'utf8').split('\n## REAL task files\n')[1]!.split('\n## ')[0]!
    for (const { path } of mappedPaths()) expect(doc, path).toContain(`\`${path}\``)
  })
})

describe("Python's == (REAL compares a query's result with expected_value by it)", () => {
  test.each([
    [1, 1.0, true],
    [true, 1, true],
    [false, 0, true],
    ['1', 1, false],
    [['a', 'b'], ['b', 'a'], false],
    [{ a: 1, b: [2] }, { b: [2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: null }, false],
    [null, null, true],
    [null, false, false],
  ])('%j == %j is %s', (a, b, equal) => {
    expect(pythonEquals(a, b)).toBe(equal)
    expect(pythonEquals(b, a)).toBe(equal)
  })
})
