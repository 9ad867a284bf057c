import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { renderRunReport, writeRunReport } from '../../src/report/index.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { check, writeSummary, writeTask } from './run-folder.ts'
import { record, unscoredRecord } from '../runs/fixtures.ts'
import { TSX } from '../grader/run-script.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const EVIL_GOAL = 'Find the cheapest <script>alert("goal")</script> laptop & report it.'
const EVIL_ANSWER = '<img src=x onerror="alert(1)"> costs $5 </pre></div>'

let dir: string
let records: TestCaseRun[]
const warnings: string[] = []
let reportPath: string
let html: string

/** Every <img src> of the report, decoded, relative to the run folder. */
function imageSources(page: string): string[] {
  return [...page.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!))
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentest-report-'))
  records = [
    await writeTask(dir, {
      id: 'omnizon-1',
      goal: 'Search Omnizon for "laptop" and tell me the name of the first result.',
      answer: 'Dell XPS 13',
      thoughts: ['Open the search box.', ''],
      check_results: [
        check('names the first result', true),
        check('explains the choice', true, 'The answer names the laptop.', {
          score: 1,
          input_tokens: 900,
          output_tokens: 40,
          judge: {
            type: 'returned_result',
            value: 'names the first laptop of the results',
            votes: [
              {
                model: 'judge-a',
                score: 1,
                comment: 'The answer names the laptop.',
                checklist: [{ question: 'Is a laptop named?', answer: 'Yes: Dell XPS 13.', met: true }],
                error: null,
                input_tokens: 900,
                output_tokens: 40,
              },
            ],
            error: null,
          },
        }),
      ],
      ai_score: 1,
      ai_comment: 'explains the choice [pass]: The answer names the laptop.',
    }),
    await writeTask(dir, {
      id: 'omnizon-2',
      goal: EVIL_GOAL,
      status: 'failed',
      agent_status: 'max_steps',
      answer: EVIL_ANSWER,
      actions: [
        { type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 600 },
        { type: 'keypress', keys: ['ctrl', 'a'] },
        { type: 'message', text: 'Still looking.' },
      ],
      check_results: [
        check('exactly one order', false, 'exactly one order: expected [] to have a length of 1 but got +0'),
        check('justifies the price', false, 'The evidence lacks a price comparison.', {
          score: 0,
          judge: {
            type: 'command_output',
            value: 'the order file lists one laptop',
            command: 'cat /tmp/order.txt',
            votes: [
              { model: 'judge-a', score: 0, comment: 'The evidence lacks a price comparison.', checklist: [], error: null, input_tokens: 10, output_tokens: 5 },
              { model: 'judge-b', score: -1, comment: null, checklist: [], error: 'HTTP 500 after 2 retries', input_tokens: 0, output_tokens: 0 },
            ],
            error: null,
          },
        }),
        check('a grader verdict', false, 'unscored: needs a grader model', { score: -1 }),
      ],
      commands: [{ command: 'cat /tmp/order.txt', output: 'no <order> yet\n', exit_code: 1 }],
      error: { kind: 'check_failed', message: 'exactly one order: expected [] to have a length of 1 but got +0' },
      human_score: 0,
      human_comment: 'Never reached checkout: <b>not bold</b>.',
    }),
  ]
  writeSummary(dir, { total: 2, passed: 1, failed: 1, success_rate: 0.5 })
  writeFileSync(join(dir, 'omnizon-9.json'), '{"id": "omnizon-9", "status": ')
  reportPath = await writeRunReport(dir, { warn: (line) => warnings.push(line) })
  html = readFileSync(reportPath, 'utf8')
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('writeRunReport', () => {
  test('writes report.html in the run folder, and nothing else', () => {
    expect(reportPath).toBe(join(dir, 'report.html'))
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true)
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([])
  })

  test('a corrupt JSON is skipped with one warning naming it; the rest of the run is reported', () => {
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('omnizon-9.json')
    expect(html).not.toContain('omnizon-9')
    expect(html).toContain('id="task-omnizon-1"')
    expect(html).toContain('id="task-omnizon-2"')
  })

  test('the header has the run, the agent, the model, totals, durations, tokens and cost', () => {
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'))
    expect(header).toContain('report-run')
    expect(header).toContain('oracle')
    expect(header).toContain('computer-use-preview')
    expect(header).toContain('50%')
    expect(header).toContain('1 passed / 2 scored')
    // A summary.json without the strict rate (this one) gets it from its counts.
    expect(header).toMatch(/Counting unscored as failed<\/div><div class="value">50%<\/div><div class="sub">0 unscored</)
    expect(header).toContain('1 passed')
    expect(header).toContain('1 failed')
    expect(header).toContain('2,400 in')
    expect(header).toContain('1,500 in')
    expect(header).toContain('$0.0123')
    expect(header).toContain('wall time 1 min 05 s')
  })

  test('the success rate carries its interval; several epochs add pass@k and pass^k', () => {
    // This run: 1 of 2 tasks passed, one attempt each: Wilson(1 of 2) = 9.5%–90.5%.
    expect(html).toContain('1 passed / 2 scored · 95% CI 9.5%–90.5%')
    expect(html).not.toContain('epochs: pass@1')
    // A task right on 2 of 3 attempts and one right on all 3: pass@1 = (2/3 + 1)/2, pass@3 = 1, pass^3 = (0 + 1)/2.
    const epochs = (id: string, statuses: Array<'passed' | 'failed'>) => statuses.map((status, i) => record({ id, status, epoch: i + 1 }))
    const page = renderRunReport({ records: [...epochs('omnizon-1', ['passed', 'failed', 'passed']), ...epochs('omnizon-2', ['passed', 'passed', 'passed'])], summary: null, runId: 'three-epochs' })
    expect(page).toMatch(/Over 3 epochs: pass@1<\/div><div class="value">83\.3%<\/div><div class="sub">pass@3 100% · pass\^3 50%</)
  })

  test('each task has its goal, answer, step pictures, checks and comments', () => {
    expect(html).toContain('Search Omnizon for &quot;laptop&quot; and tell me the name of the first result.')
    expect(html).toContain('Dell XPS 13')
    // The table links to each section.
    expect(html).toContain('href="#task-omnizon-1"')
    expect(html).toContain('href="#task-omnizon-2"')
    // Actions in words, thoughts, a message step.
    expect(html).toContain('click (120, 48)')
    expect(html).toContain('type &quot;laptop&quot;')
    expect(html).toContain('scroll (0, 600) at (640, 400)')
    expect(html).toContain('press ctrl+a')
    expect(html).toContain('Open the search box.')
    expect(html).toContain('Still looking.')
    // Check marks and messages (the check's name is not repeated in its message).
    expect(html).toMatch(/aria-label="passed"[^>]*>✓<\/span>\s*<div><div class="check-name">names the first result/)
    expect(html).toMatch(/aria-label="failed"[^>]*>✗<\/span>\s*<div><div class="check-name">exactly one order<\/div><div class="check-msg">expected \[\] to have a length of 1 but got \+0<\/div>/)
    expect(html).toMatch(/aria-label="unscored"[^>]*>○<\/span>/)
    // Judge verdicts: what was asked, every vote with its comment, checklist and errors.
    expect(html).toContain('names the first laptop of the results')
    expect(html).toContain('The answer names the laptop.')
    expect(html).toContain('Is a laptop named?')
    expect(html).toContain('The evidence lacks a price comparison.')
    expect(html).toContain('HTTP 500 after 2 retries')
    expect(html).toContain('<code>cat /tmp/order.txt</code>')
    // Command outputs, grader and human comments, the error.
    expect(html).toMatch(/<pre>no &lt;order&gt; yet\n<\/pre>/)
    expect(html).toContain('exit 1')
    expect(html).toContain('explains the choice [pass]: The answer names the laptop.')
    expect(html).toContain('Never reached checkout: &lt;b&gt;not bold&lt;/b&gt;.')
    expect(html).toContain('check_failed')
    expect(html).toContain('max_steps')
  })

  test('step images use relative paths that exist in the run folder, lazy-loaded, opening full size', () => {
    const sources = imageSources(html)
    // omnizon-1: 2 steps + final; omnizon-2: 2 screenshots (the message has none) + final.
    expect(sources).toEqual([
      'omnizon-1/step-001.png',
      'omnizon-1/step-002.png',
      'omnizon-1/final.png',
      'omnizon-2/step-001.png',
      'omnizon-2/step-002.png',
      'omnizon-2/final.png',
    ])
    for (const src of sources) expect(existsSync(join(dir, src)), src).toBe(true)
    for (const img of html.match(/<img [^>]*>/g)!) expect(img).toContain('loading="lazy"')
    expect(html).toContain('<a class="shot" href="omnizon-1/step-001.png" target="_blank" rel="noopener">')
  })

  test('a <script> in a goal or an answer is text, not live HTML', () => {
    expect(html.match(/<script/g)).toHaveLength(1) // the report's own filter script
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('&lt;script&gt;alert(&quot;goal&quot;)&lt;/script&gt;')
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;')
  })

  test('self-contained: no external stylesheet, script, font or image', () => {
    expect(html).not.toMatch(/<link\b/)
    expect(html).not.toMatch(/src="(https?:)?\/\//)
    expect(html).not.toMatch(/url\(/)
  })
})

describe('renderRunReport', () => {
  test('without summary.json the header is worked out from the records', () => {
    const page = renderRunReport({ records, summary: null, runId: 'no-summary' })
    const header = page.slice(page.indexOf('<header'), page.indexOf('</header>'))
    expect(header).toContain('no-summary')
    expect(header).toContain('oracle') // from agent_yaml
    // omnizon-2 has a human fail, omnizon-1 passed: 1 of 2.
    expect(header).toContain('50%')
    expect(header).toContain('2,400 in')
  })

  test('both rates, and a line for judged tasks set aside for want of a grader', () => {
    const runs = [record({ id: 'a' }), record({ id: 'b', status: 'failed' }), unscoredRecord({ id: 'c' }), unscoredRecord({ id: 'd' }, 'grader error: HTTP 500')]
    const page = renderRunReport({ records: runs, summary: null, runId: 'r' })
    const header = page.slice(page.indexOf('<header'), page.indexOf('</header>'))
    expect(header).toMatch(/Success rate<\/div><div class="value">50%<\/div><div class="sub">1 passed \/ 2 scored · 95% CI 9.5%–90.5%</)
    expect(header).toMatch(/Counting unscored as failed<\/div><div class="value">33.3%<\/div><div class="sub">1 unscored</)
    expect(header).toContain('<p class="set-aside">1 judged task set aside: no grader was configured')
    expect(renderRunReport({ records: runs.slice(0, 2), summary: null, runId: 'r' })).not.toContain('set-aside">')
  })

  test('a human score decides the shown status, and the harness status is kept', () => {
    const [passed] = records
    const overruled = { ...passed!, human_score: 0, human_comment: 'wrong laptop' }
    const page = renderRunReport({ records: [overruled], summary: null, runId: 'r' })
    expect(page).toContain('<article class="task" id="task-omnizon-1" data-outcome="failed">')
    expect(page).toContain('reviewed by a person')
    expect(page).toMatch(/Harness status<\/span><span class="v">passed/)
  })

  test('a run with no records still renders', () => {
    const page = renderRunReport({ records: [], summary: null, runId: 'empty' })
    expect(page).toContain('This run has no task records.')
  })
})

describe('npm run report', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [...TSX, join(ROOT, 'scripts/report.ts'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, AGENTEST_RESULTS_DIR: tmpdir(), NO_COLOR: '1' },
    })

  test('a run id is looked up under the results folder; the path is printed', () => {
    rmSync(join(dir, 'report.html'))
    const result = run(dir.slice(tmpdir().length + 1))
    expect(result.stderr).toContain('omnizon-9.json')
    expect(result.status).toBe(0)
    expect(result.stdout.trim()).toBe(join(dir, 'report.html'))
    expect(existsSync(join(dir, 'report.html'))).toBe(true)
  })

  test('a missing folder is one line and exit code 1', () => {
    const result = run(join(dir, 'nope'))
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(/^report: no run folder .*nope/)
  })
})

describe('in a real browser, from file://', () => {
  test('step images load and the filter buttons hide the other tasks', async () => {
    const browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      const dialogs: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      await page.goto(pathToFileURL(reportPath).href)

      // Lazy images load when scrolled to; every one must decode from its relative path.
      const images = page.locator('img')
      expect(await images.count()).toBe(6)
      for (const img of await images.all()) {
        await img.scrollIntoViewIfNeeded()
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 5000 }).toBe(true)
      }
      expect(await page.evaluate(() => document.scripts.length)).toBe(1)
      expect(dialogs).toEqual([])

      const passed = page.locator('#task-omnizon-1')
      const failed = page.locator('#task-omnizon-2')
      const passedRow = page.locator('tr[data-outcome="passed"]')
      await expect.poll(() => passed.isVisible()).toBe(true)

      await page.getByRole('button', { name: /Failed/ }).click()
      await expect.poll(() => passed.isVisible()).toBe(false)
      expect(await passedRow.isVisible()).toBe(false)
      expect(await failed.isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: /Failed/ }).getAttribute('aria-pressed')).toBe('true')

      await page.getByRole('button', { name: /Passed/ }).click()
      await expect.poll(() => failed.isVisible()).toBe(false)
      expect(await passed.isVisible()).toBe(true)

      await page.getByRole('button', { name: /All/ }).click()
      await expect.poll(() => failed.isVisible()).toBe(true)
      expect(await passed.isVisible()).toBe(true)
    } finally {
      await browser.close()
    }
  })
})
