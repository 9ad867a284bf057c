/**
 * Re-grades stored runs from their recorded evidence (answer, screenshots, trajectory, command
 * outputs) with the configured grader, without re-running any agent:
 *
 *   npm run regrade -- runs/<run-id> [--task omnizon-6]...
 *
 * Each TestCaseRun JSON gets new ai_score, ai_comment and validation tokens and nothing else;
 * the new verdicts with every vote go to <task>/regrade.json beside it. The run's summary.json
 * and report.html are then rewritten from the records.
 */
import { basename, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError, loadConfig } from '../src/config/index.ts'
import { createGrader } from '../src/grading/index.ts'
import { gradeStoredRun, mapLimit, withGrading } from '../src/regrade/stored-run.ts'
import { readStoredRun, storedRunFiles } from '../src/runs/record.ts'
import { rewriteSummary } from '../src/report/rebuild.ts'
import { resolveRunFolder, shownPath } from '../src/runs/resolve.ts'
import { recordKey } from '../src/schema/task.ts'
import { writeJsonAtomic } from '../src/files/atomic.ts'

const USAGE = 'usage: npm run regrade -- <run folder | run id> [--task <id>]... [--concurrency <n>]'

function fail(message: string): never {
  process.stderr.write(`regrade: ${message}\n`)
  process.exit(1)
}

async function main(): Promise<void> {
  const { values, positionals } = (() => {
    try {
      return parseArgs({
        allowPositionals: true,
        options: { task: { type: 'string', multiple: true }, concurrency: { type: 'string', default: '4' }, help: { type: 'boolean', short: 'h' } },
      })
    } catch (error) {
      fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    }
  })()
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  if (positionals.length !== 1) fail(USAGE)
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

  let dir: string
  try {
    dir = resolveRunFolder(positionals[0]!, resolve(root, config.run.results_dir))
  } catch (error) {
    if (error instanceof InputError) fail(error.message)
    throw error
  }
  const wanted = new Set(values.task ?? [])
  const files = storedRunFiles(dir).filter((f) => wanted.size === 0 || wanted.has(basename(f, '.json')) || wanted.has(basename(f, '.json').split('--')[0]!))
  if (files.length === 0) fail(`no TestCaseRun JSON in ${dir}${wanted.size ? ` for ${[...wanted].join(', ')}` : ''}`)

  process.stdout.write(`regrading ${files.length} run(s) in ${dir} with ${grader.models.join(', ')}\n`)
  const totals = { graded: 0, input: 0, output: 0 }
  await mapLimit(files, concurrency, async (file) => {
    const stored = readStoredRun(file)
    const key = recordKey(stored.run)
    if (stored.run.checks.length === 0) return void process.stdout.write(`  ${key}: no judged checks, unchanged\n`)
    const graded = await gradeStoredRun(stored, grader)
    await writeJsonAtomic(file, withGrading(stored.raw, graded.grading))
    await writeJsonAtomic(join(dir, key, 'regrade.json'), { graded_at: new Date().toISOString(), models: grader.models, check_results: graded.results })
    const g = graded.grading
    totals.graded++
    totals.input += g.validation_input_tokens
    totals.output += g.validation_output_tokens
    process.stdout.write(`  ${key}: ai_score ${stored.run.ai_score} → ${g.ai_score} (${g.validation_input_tokens} in / ${g.validation_output_tokens} out)\n`)
  })
  process.stdout.write(`regraded ${totals.graded} run(s) · grader tokens ${totals.input} in / ${totals.output} out\n`)
  if (totals.graded === 0) return
  const summary = await rewriteSummary(dir, config.prices)
  process.stdout.write(`${shownPath(dir)}/summary.json and report.html rewritten: ${summary.totals.passed}/${summary.totals.total} passed\n`)
}

await main()
