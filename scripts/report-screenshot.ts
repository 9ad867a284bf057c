/**
 * Re-takes the README's screenshot of the HTML report, docs/html-report.png:
 *
 *   npx tsx scripts/report-screenshot.ts                 # a fresh run, made for the picture
 *   npx tsx scripts/report-screenshot.ts runs/<run-id>   # the report of a run you already have
 *
 * and of the leaderboard, docs/leaderboard.png:
 *
 *   npx tsx scripts/report-screenshot.ts --leaderboard          # a made-up example set of runs
 *   npx tsx scripts/report-screenshot.ts --leaderboard runs/    # the runs you already have
 *
 * The fresh run is real: the oracle on four Omnizon tasks with a step budget of 8, so the two
 * short ones (omnizon-3, omnizon-5) pass and the two long ones (omnizon-2, omnizon-6) stop at
 * max_steps and fail their checks; the scripted judge (test/grader/scripted-grader.ts, a test
 * double) grades the judged checks, so they show votes. The picture is the top of the report:
 * the header, the task table and the first task, omnizon-2, a failure.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Page } from 'playwright'
import { writeLeaderboard } from '../src/leaderboard/index.ts'
import { writeRunReport } from '../src/report/index.ts'
import { chromiumArgs, findBrowser } from '../src/sandbox/browser/find-browser.ts'
import { startScriptedGrader } from '../test/grader/scripted-grader.ts'
import { writeExampleRuns } from '../test/leaderboard/example-runs.ts'

const ROOT = resolve(import.meta.dirname, '..')
const OUT = join(ROOT, 'docs/html-report.png')
const LEADERBOARD_OUT = join(ROOT, 'docs/leaderboard.png')
const TASKS = ['omnizon-2', 'omnizon-3', 'omnizon-5', 'omnizon-6'].map((id) => `tasks/omnizon/${id}.task.ts`)
const MAX_STEPS = '8'

/** Runs the benchmark in a child process into a temporary results folder; returns the run folder. */
async function freshRun(): Promise<string> {
  const resultsDir = mkdtempSync(join(tmpdir(), 'agentest-report-shot-'))
  const grader = await startScriptedGrader()
  try {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'benchmark', ...TASKS], {
      cwd: ROOT,
      env: { ...process.env, ...grader.env, CI: 'true', NO_COLOR: '1', AGENTEST_AGENT: 'oracle', AGENTEST_MAX_STEPS: MAX_STEPS, AGENTEST_RESULTS_DIR: resultsDir },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    await new Promise((done) => child.on('close', done))
  } finally {
    await grader.close()
  }
  const runs = readdirSync(resultsDir)
  if (runs.length !== 1) throw new Error(`expected one run folder in ${resultsDir}, found ${runs.length}`)
  return join(resultsDir, runs[0]!)
}

async function main(): Promise<void> {
  if (process.argv[2] === '--leaderboard') return leaderboardShot(process.argv[3])
  const runDir = process.argv[2] ? resolve(process.argv[2]) : await freshRun()
  const report = await writeRunReport(runDir)
  process.stdout.write(`${report}\n`)
  // Lazy images in the viewport load on their own; wait for them.
  await screenshot(report, OUT, { width: 1280, height: 1600 }, (page) =>
    page.waitForFunction(() =>
      [...document.images].filter((img) => img.getBoundingClientRect().top < innerHeight).every((img) => img.complete && img.naturalWidth > 0),
    ),
  )
}

/** The leaderboard of a results folder, or of the example runs (four rows, one of them over fewer tasks), written to a temporary folder. */
async function leaderboardShot(given: string | undefined): Promise<void> {
  const resultsDir = given ? resolve(given) : mkdtempSync(join(tmpdir(), 'agentest-leaderboard-shot-'))
  if (!given) writeExampleRuns(resultsDir)
  const { html } = await writeLeaderboard(resultsDir)
  process.stdout.write(`${html}\n`)
  await screenshot(html, LEADERBOARD_OUT, { width: 1280, height: 720 }, async () => {})
}

async function screenshot(file: string, out: string, viewport: { width: number; height: number }, ready: (page: Page) => Promise<unknown>): Promise<void> {
  mkdirSync(dirname(out), { recursive: true })
  const browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  try {
    const page = await browser.newPage({ viewport, colorScheme: 'light' })
    await page.goto(pathToFileURL(file).href)
    await ready(page)
    await page.screenshot({ path: out })
    process.stdout.write(`${out}\n`)
  } finally {
    await browser.close()
  }
}

await main()
