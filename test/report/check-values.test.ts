import { describe, expect, test } from 'vitest'
import { renderRunReport } from '../../src/report/index.ts'
import { record } from '../runs/fixtures.ts'
import { check } from './run-folder.ts'

const DIFF = '- Expected\n+ Received\n\n  {\n-   "OZ-1002": "cancelled",\n+   "OZ-1002": "placed",\n  }'

function page(...checks: ReturnType<typeof check>[]): string {
  return renderRunReport({ records: [record({ id: 'omnizon-1', status: 'failed', check_results: checks })], summary: null, runId: 'r' })
}

/** The part of the page that shows the checks. */
function checksOf(html: string): string {
  return html.slice(html.indexOf('<ul class="checks">'), html.indexOf('</ul>', html.indexOf('<ul class="checks">')))
}

describe('a failed check in the report', () => {
  test('an object comparison shows its diff, line by line, with both values in full behind a fold', () => {
    const html = checksOf(
      page(check('order statuses', false, 'expected { … } to deeply equal { … }', { expected: '{\n  "OZ-1002": "cancelled",\n}', received: '{\n  "OZ-1002": "placed",\n}', diff: DIFF })),
    )
    expect(html).toContain('<pre class="check-diff">')
    expect(html).toContain('<span class="d-exp">-   &quot;OZ-1002&quot;: &quot;cancelled&quot;,\n</span>')
    expect(html).toContain('<span class="d-rec">+   &quot;OZ-1002&quot;: &quot;placed&quot;,\n</span>')
    expect(html).toMatch(/<details><summary>expected and received in full<\/summary><dl class="check-values">/)
  })

  test('two strings show as Expected and Received, in full', () => {
    const long = 'The home page shows laptops, coffee machines and a pair of headphones.'
    const html = checksOf(page(check('the answer', false, 'expected … to be …', { expected: JSON.stringify(long), received: '"The home page"' })))
    expect(html).toContain(`<dt class="d-exp">Expected</dt><dd><pre>&quot;${long}&quot;</pre></dd>`)
    expect(html).toContain('<dt class="d-rec">Received</dt><dd><pre>&quot;The home page&quot;</pre></dd>')
    expect(html).not.toContain('check-diff')
  })

  test("the check's name shows once, even in a record made before names were kept out of messages", () => {
    const html = checksOf(page(check('two lines in the cart', false, 'two lines in the cart: expected 1 to be 2')))
    expect(html.split('two lines in the cart')).toHaveLength(2)
  })
})
