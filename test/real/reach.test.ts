import { describe, expect, test } from 'vitest'
import { unreachable } from '../../fixtures/apps/omnizon/real/index.ts'

const ORDER = 'orderDetailsDiff.added."0".order'
const WHOLE = /^the whole object: REAL's has fields agentest does not map/

describe('which parts of REAL\'s state a query reads, and whether agentest has them', () => {
  test.each([
    // REAL's own v1 Omnizon queries (notes, §1.3).
    `length(${ORDER}.cart)`,
    `sort_by(${ORDER}.cart, &id)[].id`,
    `length(${ORDER}.cart[?quantity != \`1\`]) == \`0\``,
    `${ORDER}.cart[0].id`,
    `${ORDER}.selected_card.cardName`,
    `${ORDER}.selected_delivery`,
    // A closed object (REAL's has exactly these fields) may be compared whole.
    `${ORDER}.selected_card`,
    // v2's paths, through maps and projections.
    'values(initialfinaldiff.added.order.orders)[].items[].id',
    'initialfinaldiff.added.order.orders.*.total',
    'max_by(values(initialfinaldiff.added.cart.cartDetails), &price).id',
    'initialfinaldiff.updated.router.location.pathname == `"/confirmation"`',
    "contains(initialfinaldiff.updated.filter.searchQuery, 'kettle')",
    'keys(orderDetailsDiff.added)',
    'length(values(initialfinaldiff.added.order.orders)[?total > `35`]) > `0` && !initialfinaldiff.updated.filter',
    `map(&quantity, ${ORDER}.cart)`,
    `{ids: ${ORDER}.cart[].id, n: length(${ORDER}.cart)}`,
    `${ORDER}.cart | [0].quantity`,
    // A field REAL's closed card does not have is null on both sides.
    `${ORDER}.selected_card.nickname`,
  ])('maps: %s', (query) => {
    expect(unreachable(query)).toEqual([])
  })

  test('a part REAL has and agentest does not: the path and why', () => {
    expect(unreachable('initialfinaldiff.updated.miniCart.justAdded')).toEqual([
      { path: 'initialfinaldiff.updated.miniCart', reason: "REAL's mini-cart pop-up: agentest's Omnizon has none" },
    ])
    expect(unreachable('initialfinaldiff.updated.filter.searchInputValue')).toEqual([
      { path: 'initialfinaldiff.updated.filter.searchInputValue', reason: expect.stringMatching(/only the searches sent/) },
    ])
    expect(unreachable('values(initialfinaldiff.added.order.orders)[0].date')).toEqual([
      { path: 'initialfinaldiff.added.order.orders.*.date', reason: expect.stringMatching(/date format is not documented/) },
    ])
  })

  test('a path the mapping does not know is reported too, wherever the query reads it', () => {
    const unknown = { path: `${ORDER}.cart[].title`, reason: expect.stringMatching(/^not a part of REAL's Omnizon state that agentest maps/) }
    expect(unreachable(`${ORDER}.cart[].title`)).toEqual([unknown])
    expect(unreachable(`sort_by(${ORDER}.cart, &title)[].id`)).toEqual([unknown])
    expect(unreachable(`${ORDER}.cart[?title == 'x'].id`)).toEqual([unknown])
    expect(unreachable('differences.orders.added')).toEqual([{ path: 'differences', reason: expect.stringMatching(/per-collection/) }])
    expect(unreachable('somethingElse')).toEqual([{ path: 'somethingElse', reason: expect.any(String) }])
  })

  test('an open object read whole (returned, compared, listed, counted) is reported: REAL\'s has more fields', () => {
    expect(unreachable(`${ORDER}.cart[0]`)).toEqual([{ path: `${ORDER}.cart[]`, reason: expect.stringMatching(WHOLE) }])
    expect(unreachable(`${ORDER} == \`{}\``)).toEqual([{ path: ORDER, reason: expect.stringMatching(WHOLE) }])
    expect(unreachable('keys(initialfinaldiff.updated)')).toEqual([{ path: 'initialfinaldiff.updated', reason: expect.stringMatching(WHOLE) }])
    expect(unreachable('initialfinaldiff.updated.*.location')).toEqual([{ path: 'initialfinaldiff.updated', reason: expect.stringMatching(WHOLE) }])
    expect(unreachable('@')).toEqual([{ path: '@', reason: expect.stringMatching(WHOLE) }])
  })

  test('a query REAL could not run either is an error, not an unmapped eval', () => {
    expect(() => unreachable('orderDetailsDiff.added.[')).toThrow()
    expect(() => unreachable('frobnicate(orderDetailsDiff)')).toThrow('unknown function frobnicate()')
  })
})
