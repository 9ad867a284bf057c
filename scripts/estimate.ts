/**
 * What a run would cost, before it runs:
 *
 *   npm run estimate -- [vitest filters: tasks/omnizon -t 'omnizon-2\b' --tags-filter=easy ...] [--json]
 *
 * Lists the tasks the filters select (`vitest list --project benchmark`), takes the epochs from
 * the config (run.epochs, AGENTEST_EPOCHS), and prices each task's mean agent tokens over the
 * earlier attempts of the same agent and model under run.results_dir with the config's `prices`.
 * --json prints a RunEstimate (src/runs/estimate.ts). Exits 0; 1 on bad input or a failed listing.
 */
import { resolve } from 'node:path'
import { loadConfig } from '../src/config/index.ts'
import { estimateRun, readHistory, renderEstimate } from '../src/runs/estimate.ts'
import { shownPath } from '../src/runs/resolve.ts'
import { listBenchmarkTests } from '../src/runs/vitest-child.ts'
import { taskKeyOfTestName } from '../src/task/test-name.ts'
import { cli } from './cli.ts'

const USAGE = "usage: npm run estimate -- [vitest filters, e.g. tasks/omnizon -t 'omnizon-2\\b'] [--json]"

const script = cli('estimate', USAGE)

/** The task keys the filters select, as `vitest run` would run them (each once, whatever the epochs). */
async function listTasks(root: string, filters: string[]): Promise<string[]> {
  const tests = await listBenchmarkTests(root, filters)
  return [...new Set(tests.map((t) => taskKeyOfTestName(t.name)).filter((key): key is string => key !== null))]
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  if (args.includes('--help') || args.includes('-h')) return void process.stdout.write(`${USAGE}\n`)
  const json = args.includes('--json')
  const filters = args.filter((arg) => arg !== '--json')
  const root = process.cwd()
  const { config } = loadConfig(root)
  const resultsDir = resolve(root, config.run.results_dir)
  const agent = config.agent.name
  const model = config.agent.model
  const tasks = await listTasks(root, filters)
  const history = readHistory(resultsDir, agent, model)
  const estimate = estimateRun({ tasks, epochs: config.run.epochs, agent, model, prices: config.prices, history: history.records, historyRuns: history.runs })
  if (json) return void process.stdout.write(`${JSON.stringify(estimate, null, 2)}\n`)
  for (const line of renderEstimate(estimate, shownPath(resultsDir))) process.stdout.write(`${line}\n`)
}

await script.run(main)
