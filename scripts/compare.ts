/**
 * Diffs two stored runs task by task (matched by task id plus variant, attempts by epoch), after
 * human review:
 *
 *   npm run compare -- <run A> <run B> [--json] [--level 0.05]
 *
 * Prints the success rate overall and by suite in each run; B − A over the tasks scored in both,
 * with its interval and a paired test (McNemar exact, or a paired bootstrap with several epochs)
 * at the significance level given (0.05 by default); then the attempts newly passing, newly
 * failing, still failing, skipped or unscored, and only in one run. --json prints a RunComparison
 * (src/runs/comparison.ts) instead. Exits 0 whatever changed: it reports, it does not judge.
 */
import { resolve } from 'node:path'
import { loadConfig } from '../src/config/index.ts'
import { compareRuns } from '../src/runs/compare.ts'
import { readRunFolder } from '../src/runs/folder.ts'
import { renderComparison } from '../src/report/comparison.ts'
import { resolveRunFolder } from '../src/runs/resolve.ts'

import { cli } from './cli.ts'
const USAGE = 'usage: npm run compare -- <run A folder | run id> <run B folder | run id> [--json] [--level 0.05]'

const { fail, parse, run } = cli('compare', USAGE)


function main(): void {
  const { values, positionals } = parse({ json: { type: 'boolean' }, level: { type: 'string' } })
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  if (positionals.length !== 2) fail(USAGE)
  const level = values.level === undefined ? 0.05 : Number(values.level)
  if (!(level > 0 && level < 1)) fail(`--level ${values.level}: a significance level between 0 and 1, such as 0.05\n${USAGE}`)
  const root = process.cwd()
  const resultsDir = resolve(root, loadConfig(root).config.run.results_dir)
  const [a, b] = positionals.map((given) => readRunFolder(resolveRunFolder(given, resultsDir)))
  const comparison = compareRuns(a!, b!, { level })
  if (values.json) return void process.stdout.write(`${JSON.stringify(comparison, null, 2)}\n`)
  for (const line of renderComparison(comparison)) process.stdout.write(`${line}\n`)
}

await run(main)
