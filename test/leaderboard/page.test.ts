import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Leaderboard, writeLeaderboard, type WrittenLeaderboard } from '../../src/leaderboard/index.ts'
import { renderRunReport, writeRunReport } from '../../src/report/index.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'
import { writeScenario } from './scenario.ts'

let dir: string
let written: WrittenLeaderboard
let html: string
let browser: Browser
let page: Page
const requests: string[] = []

beforeAll(async () => {
  dir = writeScenario()
  written = await writeLeaderboard(dir, () => {})
  html = readFileSync(written.html, 'utf8')
  await writeRunReport(join(dir, 'a1'), { warn: () => {} })
  browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  page.on('request', (request) => requests.push(request.url()))
  await page.goto(pathToFileURL(written.html).href)
})

afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The visible rows' agents, top to bottom. */
const agents = () => page.locator('#board tbody tr:visible .who').allTextContents()
const rowOf = (agent: string) => page.locator('#board tbody tr', { has: page.locator('.who', { hasText: new RegExp(`^${agent}$`) }) })
// By text, not accessible name: the sorted column's button also reads its ▲ or ▼.
const labelled = (label: string) => page.locator('button').filter({ hasText: new RegExp(`^${label}$`) })
const header = (label: string) => page.locator('#board thead th').filter({ has: labelled(label) })
const sortButton = (label: string) => header(label).locator('button')

describe('writeLeaderboard', () => {
  test('writes leaderboard.html and leaderboard.json in the results folder, through temporary files', () => {
    expect(written.html).toBe(join(dir, 'leaderboard.html'))
    expect(written.json).toBe(join(dir, 'leaderboard.json'))
    expect(Leaderboard.parse(JSON.parse(readFileSync(written.json, 'utf8')))).toEqual(written.board)
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([])
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true)
  })

  test('self-contained: one inline script, no stylesheet link, no remote source, no fetch', () => {
    expect(html.match(/<script/g)).toHaveLength(1)
    expect(html).not.toMatch(/<link\b/)
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
    expect(html).not.toContain('fetch(')
  })

  test("a run's report links to the leaderboard beside its folder", () => {
    const report = renderRunReport({ records: [], summary: null, runId: 'r' })
    const meta = report.slice(report.indexOf('<div class="run-meta">'), report.indexOf('<div class="stats">'))
    expect(meta).toContain('<a href="../leaderboard.html">Leaderboard</a>')
  })
})

describe('in a real browser, from file://', () => {
  test('a row per agent × model × grader with its rates, intervals, tokens, cost and time', async () => {
    expect(await agents()).toEqual(['other-agent', 'my-agent', 'nop'])
    expect(await page.locator('#board thead th').allTextContents()).toEqual([
      'Agent',
      'Model',
      'Grader',
      'Overall',
      'editor',
      'omnizon',
      'Tasks',
      'Tokens / task',
      'Cost / task',
      'Time / task',
    ])
    const cells = async (agent: string) => (await rowOf(agent).locator('td').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())
    const mine = await cells('my-agent')
    const ci = written.board.rows.find((r) => r.agent === 'my-agent')!.overall.interval!
    expect(mine.slice(1, 3)).toEqual(['model-a', 'judge-1'])
    expect(mine[3]).toBe(`58.3% ${Math.round(ci.low * 100)}–${Math.round(ci.high * 100)}% 6 tasks, 11 tries`)
    // editor: tasks [1] and [0, 1], p = 0.75, n_eff = 0.1875·2/0.125 = 3 (= N): Wilson(0.75, 3) = 26–96%.
    expect(mine[4]).toBe('75% 26–96% 2 tasks, 3 tries')
    expect(mine[5]).toMatch(/^50% \d+–\d+% 4 tasks, 8 tries$/)
    expect(mine.slice(6)).toEqual(['all 6 every suite', '1,500 grader 10', '$0.0021', '10 s'])
    const other = await cells('other-agent')
    expect(other.slice(1, 7)).toEqual(['model-b', 'none', '66.7% 21–94% 3 tasks', '—', '66.7% 21–94% 3 tasks', '⚠ covers 3 of 6 tasks omnizon'])
    expect(other.slice(7)).toEqual(['2,667', '—', '7.0 s'])
    expect((await cells('nop')).slice(1, 4)).toEqual(['—', 'none', '0% 0–39% 6 tasks'])
  })

  test('the row over fewer tasks is flagged, its missing tasks on hover and one click away', async () => {
    const other = rowOf('other-agent')
    expect(await other.getAttribute('data-coverage')).toBe('partial')
    expect(await rowOf('my-agent').getAttribute('data-coverage')).toBe('complete')
    const flag = other.locator('details.partial summary')
    expect(await flag.getAttribute('title')).toBe('missing: editor-1, editor-2, omnizon-4')
    const missing = other.locator('ul.missing li')
    expect(await missing.first().isVisible()).toBe(false)
    await flag.click()
    await expect.poll(() => missing.first().isVisible()).toBe(true)
    expect(await missing.allTextContents()).toEqual(['editor-1', 'editor-2', 'omnizon-4'])
    await flag.click()
  })

  test('clicking a header sorts by that column, a second click turns it round', async () => {
    expect(await header('Overall').getAttribute('aria-sort')).toBe('descending')
    await sortButton('Agent').click()
    expect(await agents()).toEqual(['my-agent', 'nop', 'other-agent'])
    expect(await header('Agent').getAttribute('aria-sort')).toBe('ascending')
    expect(await header('Overall').getAttribute('aria-sort')).toBe('none')
    await sortButton('Agent').click()
    expect(await agents()).toEqual(['other-agent', 'nop', 'my-agent'])

    // A number column starts with the highest.
    await sortButton('Tasks').click()
    expect((await agents())[2]).toBe('other-agent')
    await sortButton('Overall').click()
    expect(await agents()).toEqual(['other-agent', 'my-agent', 'nop'])
    await sortButton('Overall').click()
    expect(await agents()).toEqual(['nop', 'my-agent', 'other-agent'])
    // A row without a cost sorts last either way.
    await sortButton('Cost / task').click()
    expect((await agents())[0]).toBe('my-agent')
  })

  test('typing in the filter hides the rows whose agent, model and grader do not match', async () => {
    const box = page.getByPlaceholder('Filter by agent, model or grader')
    expect(await box.isVisible()).toBe(true)
    await box.fill('judge')
    expect(await agents()).toEqual(['my-agent'])
    expect(await page.locator('#shown').textContent()).toBe('1 of 3 rows')
    await box.fill('MODEL-')
    expect((await agents()).sort()).toEqual(['my-agent', 'other-agent'])
    await box.fill('none model-b')
    expect(await agents()).toEqual(['other-agent'])
    await box.fill('no such agent')
    expect(await agents()).toEqual([])
    expect(await page.locator('#shown').textContent()).toBe('0 of 3 rows')
    await box.fill('')
    expect(await agents()).toHaveLength(3)
  })

  test("each run links to its report, whose Leaderboard link leads back; nothing but the folder's files was loaded", async () => {
    const mine = rowOf('my-agent')
    await mine.locator('details summary').first().click()
    expect(await mine.locator('a').allTextContents()).toEqual(['a1', 'a2'])
    await mine.getByRole('link', { name: 'a1' }).click()
    await page.waitForURL(/a1\/report\.html$/)
    await page.getByRole('link', { name: 'Leaderboard' }).click()
    await page.waitForURL(/\/leaderboard\.html$/)
    expect(await agents()).toHaveLength(3)
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([])
  })
})
