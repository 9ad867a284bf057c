/**
 * Diffs two stored runs task by task (matched by task id plus variant), after human review:
 *
 *   npm run compare -- <run A> <run B> [--json]
 *
 * Prints the success rate overall and by suite in each run, then the tasks newly passing, newly
 * failing, still failing, skipped or unscored, and only in one run. --json prints a RunComparison
 * (src/runs/comparison.ts) instead. Exits 0 whatever changed: it reports, it does not judge.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError, loadConfig } from '../src/config/index.ts'
import { compareRuns } from '../src/runs/compare.ts'
import { readRunFolder } from '../src/runs/folder.ts'
import { renderComparison } from '../src/runs/render-comparison.ts'
import { resolveRunFolder } from '../src/runs/resolve.ts'

const USAGE = 'usage: npm run compare -- <run A folder | run id> <run B folder | run id> [--json]'

function fail(message: string): never {
  process.stderr.write(`compare: ${message}\n`)
  process.exit(1)
}

function parse() {
  try {
    return parseArgs({ allowPositionals: true, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } })
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
  }
}

function main(): void {
  const { values, positionals } = parse()
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  if (positionals.length !== 2) fail(USAGE)
  const root = process.cwd()
  const resultsDir = resolve(root, loadConfig(root).config.run.results_dir)
  const [a, b] = positionals.map((given) => readRunFolder(resolveRunFolder(given, resultsDir)))
  const comparison = compareRuns(a!, b!)
  if (values.json) return void process.stdout.write(`${JSON.stringify(comparison, null, 2)}\n`)
  for (const line of renderComparison(comparison)) process.stdout.write(`${line}\n`)
}

try {
  main()
} catch (error) {
  if (error instanceof InputError) fail(error.message)
  throw error
}
