/**
 * Writes a run's static HTML report, `<run folder>/report.html`, and prints its path:
 *
 *   npm run report -- runs/<run-id>      # or just the run id, looked up under run.results_dir
 *
 * The report opens from file:// without a server (screenshots by relative path).
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config/index.ts'
import { InputError } from '../src/errors/input-error.ts'
import { writeFolderReport } from '../src/report/index.ts'
import { readRunFolder } from '../src/runs/folder.ts'
import { resolveRunFolder } from '../src/runs/resolve.ts'

const USAGE = 'usage: npm run report -- <run folder | run id>'

function fail(message: string): never {
  process.stderr.write(`report: ${message}\n`)
  process.exit(1)
}

/** run.results_dir from the config (AGENTEST_RESULTS_DIR included); a broken config still leaves the default. */
function resultsDir(root: string): string {
  try {
    return loadConfig(root).config.run.results_dir
  } catch {
    return process.env.AGENTEST_RESULTS_DIR || 'runs'
  }
}

async function main(): Promise<void> {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } })
    } catch (error) {
      fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    }
  })()
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  if (positionals.length !== 1) fail(USAGE)

  const root = process.cwd()
  try {
    const dir = resolveRunFolder(positionals[0]!, resolve(root, resultsDir(root)))
    const folder = readRunFolder(dir)
    if (folder.records.length === 0) fail(`no TestCaseRun JSON in ${dir}: is it a run folder?`)
    process.stdout.write(`${await writeFolderReport(folder)}\n`)
  } catch (error) {
    if (error instanceof InputError) fail(error.message)
    throw error
  }
}

await main()
