import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { foreignValues, loadRealTasks, planCase, rubricProblems } from '../../fixtures/apps/omnizon/real/index.ts'

/** REAL-format cases whose checks name what agentest's shop lacks: skipped at load, each with why. */
const TASK = {
  id: 'omnizon-x',
  goal: 'Buy a tent.',
  website: { id: 'omnizon' },
  evals: [{ type: 'jmespath', expected_value: 1, query: 'length(orderDetailsDiff.added)' }],
}

function plan(task: object) {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-real-unpassable-'))
  writeFileSync(join(dir, 'omnizon-x.json'), JSON.stringify({ ...TASK, ...task }))
  return planCase(loadRealTasks(dir)[0]!)
}

const CART_ID = 'orderDetailsDiff.added."0".order.cart[0].id'
/** Where the value is in REAL's layout (any line of the cart). */
const LINE_ID = 'orderDetailsDiff.added."0".order.cart[].id'

describe('expected values agentest cannot give', () => {
  test("a product id outside agentest's catalog, as expected value or compared literal; the catalog's own pass", () => {
    expect(foreignValues(CART_ID, '22')).toEqual([{ path: LINE_ID, value: '22', reason: expect.stringMatching(/^not a product id of agentest's catalog \(p001-p201\)/) }])
    expect(foreignValues(CART_ID, 'p166')).toEqual([])
    expect(foreignValues('sort_by(orderDetailsDiff.added."0".order.cart, &id)[].id', ['p001', '15']).map((f) => f.value)).toEqual(['15'])
    expect(foreignValues('sort(values(initialfinaldiff.added.cart.cartDetails)[].id)', ['p068', '61']).map((f) => f.value)).toEqual(['61'])
    expect(foreignValues('length(orderDetailsDiff.added."0".order.cart[?id == \'22\']) == `1`', true).map((f) => f.value)).toEqual(['22'])
    expect(foreignValues('contains(orderDetailsDiff.added."0".order.cart[].id, \'51\')', true).map((f) => f.value)).toEqual(['51'])
    // A bound is not a value: `quantity > 0` is met by any line.
    expect(foreignValues('length(orderDetailsDiff.added."0".order.cart[?quantity > `0`]) == `1`', true)).toEqual([])
    expect(foreignValues('length(orderDetailsDiff.added."0".order.cart[?quantity != `0`]) == `1`', true).map((f) => f.value)).toEqual([0])
    // null is "not there", which agentest gives too.
    expect(foreignValues(CART_ID, null)).toEqual([])
  })

  test("quantities past the shop's limit, delivery dates and prices it does not have, other order numbers and product pages", () => {
    const order = 'orderDetailsDiff.added."0".order'
    expect(foreignValues(`${order}.cart[0].quantity`, 30)).toEqual([])
    expect(foreignValues(`${order}.cart[0].quantity`, 31)[0]?.reason).toBe("not a quantity agentest's shop allows (1-30)")
    expect(foreignValues(`${order}.selected_delivery`, 'Monday, Jul 21')).toEqual([])
    expect(foreignValues(`${order}.selected_delivery`, 'Tuesday, Jul 22')[0]?.reason).toMatch(/^not one of agentest's delivery dates \(Wednesday, Jul 16; .*Monday, Jul 21\)$/)
    expect(foreignValues(`${order}.cart[0].price`, 129.97)).toEqual([])
    expect(foreignValues(`${order}.cart[0].price`, 129.96)[0]?.reason).toBe("no product of agentest's catalog has this price")
    expect(foreignValues('initialfinaldiff.added.order.orders."0".orderNumber', 'OZ-1001')).toEqual([])
    expect(foreignValues('initialfinaldiff.added.order.orders."0".orderNumber', '112-7766')).toHaveLength(1)
    expect(foreignValues('initialfinaldiff.updated.router.location.pathname', '/product/p050')).toEqual([])
    expect(foreignValues('initialfinaldiff.updated.router.location.pathname', '/product/15')[0]?.reason).toMatch(/^names product "15"/)
    // Free text (a card holder, a search) is whatever the shopper typed: never foreign.
    expect(foreignValues(`${order}.selected_card.cardName`, 'Jack Fulton')).toEqual([])
  })
})

describe('rubrics naming what the catalog does not have', () => {
  test('a name no product, brand or category has; a model no product is; a category agentest lacks', () => {
    expect(rubricProblems("Does the answer mention the first product (VILVA Portable-Monitor-for-Laptop) in the results for 'laptop'?")).toEqual([
      'names "VILVA" (in "VILVA Portable-Monitor-for-Laptop"): no product, brand or category of agentest\'s catalog has it',
    ])
    expect(rubricProblems('Does the answer name the Galaxy Z Fold 7?')).toEqual(['names "Galaxy Z Fold 7": no product of agentest\'s catalog is it'])
    expect(rubricProblems('Does it list products of the Electronics category?')).toEqual([expect.stringMatching(/^names the "Electronics" category, which agentest's Omnizon does not have \(it has Smartphones, /)])
  })

  test('a product named with a category it is not in', () => {
    expect(rubricProblems('Does the answer identify the SAMSUNG Galaxy Z Fold as the most expensive product in the Gaming category?')).toEqual([
      'names "SAMSUNG Galaxy Z Fold" with the Video Games & Gaming category, but agentest\'s catalog has it only in Smartphones (p002)',
    ])
  })

  test("the catalog's own names pass, however they are spelled or spaced", () => {
    for (const rubric of [
      'Does the answer explain why the Samsung Galaxy S24 Ultra offers better features relative to its price compared to the Galaxy Z Fold 6?',
      'Does the answer list multiple specifications of the KTC 24 inch 1500R Curved Gaming Monitor, such as size?',
      'Does the answer list multiple headphone products from the Headphones category, including their names?',
      'Does the answer name the Magna-Tiles Classic 32-Piece set as the highest-rated toy of the Toys & Games category, rated 4.9 out of 5?',
      'Did it use Buy Now and choose Monday, Jul 21?',
    ]) {
      expect(rubricProblems(rubric), rubric).toEqual([])
    }
  })
})

describe('what a case with such checks becomes', () => {
  test('skipped at load, one line naming the file, the eval and why; its evals still planned', () => {
    const p = plan({ evals: [{ type: 'jmespath', expected_value: '22', query: CART_ID }, { type: 'llm_boolean', rubric: 'Does it name the VILVA monitor?' }] })
    expect(p.unpassable).toEqual([
      `evals[0] jmespath expects "22" at ${LINE_ID}: not a product id of agentest's catalog (p001-p201): REAL's ids name REAL's own products`,
      'evals[1] llm_boolean rubric names "VILVA": no product, brand or category of agentest\'s catalog has it',
    ])
    expect(p.skip).toMatch(/^checks a right run on agentest cannot pass in \S+omnizon-x\.json: evals\[0\] jmespath expects "22" .* \| evals\[1\] llm_boolean rubric names "VILVA"/)
    expect(p.skip).not.toContain('\n')
  })

  test("Buy Now after filling the cart: REAL's checks out the cart with the item, agentest's the item alone", () => {
    const p = plan({ goal: 'Search for "smartphones", add the first two to your cart, open the third and click on "Buy Now".' })
    expect(p.skip).toMatch(/: goal: adds to the cart, then uses Buy Now: REAL's Buy Now checks out the cart together with the item, agentest's the item alone/)
    // Buy Now alone, or the cart alone, is the same on both.
    expect(plan({ goal: 'Buy the Casio F-91W watch using "Buy Now".' }).skip).toBeNull()
    expect(plan({ goal: 'Add the JBL Go 3 speaker to my cart.' }).skip).toBeNull()
  })

  test('an unmapped eval and an unpassable one: both on the one line', () => {
    const p = plan({ evals: [{ type: 'jmespath', expected_value: true, query: 'initialfinaldiff.updated.miniCart.justAdded' }, { type: 'jmespath', expected_value: '22', query: CART_ID }] })
    expect(p.skip).toMatch(/^unmapped REAL evals in .*miniCart.*; and checks a right run on agentest cannot pass in .*expects "22"/)
  })
})
