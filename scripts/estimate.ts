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
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { z } from 'zod'
import { InputError, loadConfig } from '../src/config/index.ts'
import { estimateRun, readHistory, renderEstimate} from '../src/runs/estimate.ts'
import { shownPath } from '../src/runs/resolve.ts'

import { cli } from './cli.ts'
import { taskKeyOfTestName } from '../src/fixtures/test-name.ts'
const USAGE = "usage: npm run estimate -- [vitest filters, e.g. tasks/omnizon -t 'omnizon-2\\b'] [--json]"
const run = promisify(execFile)

const script = cli('estimate', USAGE)

const Listed = z.array(z.object({ name: z.string() }))

/** The task keys the filters select, as `vitest run` would run them (each once, whatever the epochs). */
async function listTasks(root: string, filters: string[]): Promise<string[]> {
  const pkg = createRequire(join(root, 'package.json')).resolve('vitest/package.json')
  const bin = join(dirname(pkg), (JSON.parse(readFileSync(pkg, 'utf8')) as { bin: { vitest: string } }).bin.vitest)
  // Listing runs the benchmark's global setup, which writes a run folder: keep that out of results_dir.
  const scratch = mkdtempSync(join(tmpdir(), 'agentest-estimate-'))
  try {
    const { stdout } = await run(process.execPath, [bin, 'list', '--json', '--project', 'benchmark', ...filters], {
      cwd: root,
      env: { ...process.env, AGENTEST_RESULTS_DIR: scratch, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    })
    // The plugin's banner comes first; the list is the JSON from the first line that opens an array.
    const start = stdout.search(/^\[/m)
    const tests = Listed.parse(JSON.parse(start < 0 ? '[]' : stdout.slice(start)))
    return [...new Set(tests.map((t) => taskKeyOfTestName(t.name)).filter((key): key is string => key !== null))]
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim()
    if (error instanceof z.ZodError || error instanceof SyntaxError) throw new InputError(`vitest list printed no test list: ${error.message}`)
    throw new InputError(`vitest list ${filters.join(' ')} failed${stderr ? `:\n${stderr}` : `: ${error instanceof Error ? error.message : String(error)}`}`)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
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
