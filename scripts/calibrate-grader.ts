/**
 * Measures how well the configured grader agrees with known outcomes: it judges a labelled set
 * of stored runs (oracle runs labelled pass; near-miss and nop runs labelled fail) and prints
 * accuracy, false pass rate and false fail rate.
 *
 *   npm run grader:calibrate                         # the set in runs/grader-calibration (built on first use)
 *   npm run grader:calibrate -- --build              # rebuild it: tasks/omnizon under oracle, near-miss and nop
 *   npm run grader:calibrate -- --set <dir>          # another set (its labels.json)
 *   npm run grader:calibrate -- --pass runs/<a> --fail runs/<b>   # label whole run folders
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError, loadConfig } from '../src/config/index.ts'
import { createGrader } from '../src/grading/index.ts'
import {
  agreement,
  checksToCalibrate,
  labelFolders,
  labelsFile,
  readLabelledSet,
  renderAgreement,
  type Label,
  type LabelledRun,
} from '../src/regrade/calibration.ts'
import { gradeStoredRun, mapLimit } from '../src/regrade/stored-run.ts'
import { writeJsonAtomic } from '../src/files/atomic.ts'
import { RunSummary } from '../src/schema/summary.ts'

const USAGE = 'usage: npm run grader:calibrate -- [--set <dir>] [--build] [--suite tasks/omnizon] [--pass <run folder>]... [--fail <run folder>]... [--concurrency <n>] [--json]'
const MIN_ITEMS = 20
/** Who made the runs of a built set, and what a correct grader should say about them. */
const SOURCES: ReadonlyArray<{ agent: string; label: Label }> = [
  { agent: 'oracle', label: 'pass' },
  { agent: 'near-miss', label: 'fail' },
  { agent: 'nop', label: 'fail' },
]

function fail(message: string): never {
  process.stderr.write(`grader:calibrate: ${message}\n`)
  process.exit(1)
}

function say(line: string): void {
  process.stdout.write(`${line}\n`)
}

async function main(): Promise<void> {
  const { values } = (() => {
    try {
      return parseArgs({
        options: {
          set: { type: 'string' },
          build: { type: 'boolean' },
          suite: { type: 'string', default: 'tasks/omnizon' },
          pass: { type: 'string', multiple: true },
          fail: { type: 'string', multiple: true },
          concurrency: { type: 'string', default: '4' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      })
    } catch (error) {
      fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    }
  })()
  if (values.help) return void say(USAGE)
  const concurrency = Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1) fail(`--concurrency: a positive integer: ${values.concurrency}`)

  const root = process.cwd()
  let config
  try {
    config = loadConfig(root).config
  } catch (error) {
    if (error instanceof InputError) fail(error.message)
    throw error
  }
  const grader = createGrader(config.grader)
  if (!grader) fail('no grader is configured: set grader.model in agentest.config.yaml, or AGENTEST_GRADER_MODEL (with AGENTEST_GRADER_BASE_URL and AGENTEST_GRADER_API_KEY_ENV as needed)')

  let items: LabelledRun[]
  try {
    if (values.pass?.length || values.fail?.length) {
      const folder = (dir: string) => (existsSync(dir) && statSync(dir).isDirectory() ? resolve(dir) : fail(`no run folder ${dir}`))
      items = labelFolders([
        ...(values.pass ?? []).map((dir) => ({ dir: folder(dir), label: 'pass' as const })),
        ...(values.fail ?? []).map((dir) => ({ dir: folder(dir), label: 'fail' as const })),
      ])
    } else {
      const setDir = resolve(root, values.set ?? join(config.run.results_dir, 'grader-calibration'))
      const labels = join(setDir, 'labels.json')
      if (values.build || !existsSync(labels)) await build(setDir, values.suite, labels)
      items = readLabelledSet(labels)
    }
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error))
  }
  if (items.length < MIN_ITEMS) fail(`a calibration set needs at least ${MIN_ITEMS} labelled runs; this one has ${items.length}`)

  say(`judging ${items.length} labelled runs with ${grader.models.join(', ')} ...`)
  const outcomes = await mapLimit(items, concurrency, async ({ label, stored }) => {
    const { grading } = await gradeStoredRun(stored, grader, checksToCalibrate(stored))
    return {
      file: stored.file,
      label,
      ai_score: grading.ai_score,
      comment: grading.ai_comment,
      input_tokens: grading.validation_input_tokens,
      output_tokens: grading.validation_output_tokens,
    }
  })
  const result = agreement(outcomes)
  if (values.json) return void say(JSON.stringify({ models: grader.models, ...result }, null, 2))
  for (const line of renderAgreement(result, grader.models, root)) say(line)
}

/** Runs the suite under each source agent into the set's folder, then labels what they recorded. */
async function build(setDir: string, suite: string, labels: string): Promise<void> {
  mkdirSync(setDir, { recursive: true })
  const vitest = resolve('node_modules/vitest/vitest.mjs')
  // The runs are evidence for the grader, so they are made without one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AGENTEST_GRADER_')))
  const folders: Array<{ dir: string; label: Label; agent: string }> = []
  for (const { agent, label } of SOURCES) {
    say(`building the calibration set: ${suite} under ${agent} ...`)
    const before = new Set(readdirSync(setDir))
    const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'benchmark', suite], {
      env: { ...env, AGENTEST_AGENT: agent, AGENTEST_RESULTS_DIR: setDir, AGENTEST_RUN_NAME: agent, CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    })
    const made = readdirSync(setDir).filter((name) => !before.has(name) && name.startsWith(`${agent}-`))
    if (made.length !== 1) fail(`the ${agent} run wrote no run folder in ${setDir} (exit ${run.status}): ${run.stderr.toString().trim().split('\n').slice(-3).join(' | ')}`)
    const dir = join(setDir, made[0]!)
    // Failures are the point of near-miss and nop runs, so only the run's totals are shown.
    const summary = join(dir, 'summary.json')
    if (existsSync(summary)) {
      const { totals } = RunSummary.parse(JSON.parse(readFileSync(summary, 'utf8')))
      say(`  ${made[0]}: ${totals.total} tasks, ${totals.passed} passed, ${totals.failed} failed, ${totals.error} errors, ${totals.skipped + totals.unscored} skipped`)
    }
    folders.push({ dir, label, agent })
  }
  const items = labelFolders(folders)
  await writeJsonAtomic(labels, labelsFile(items, setDir))
  say(`labelled ${items.length} runs in ${labels}`)
}

await main()
