/**
 * How faithfully agentest runs other benchmarks' own files:
 *
 *   npm run fidelity -- <upstream folder> [--no-run]
 *
 * For every REAL task file (`*.json`) and OSUniverse case (`*.yaml`) under the folder: whether
 * agentest's loader takes it, whether it runs here or is skipped (and why), and (unless --no-run)
 * how each runnable one does under the nop agent: a faithful task fails it with every check run.
 * A grader model in the environment (AGENTEST_GRADER_MODEL...) runs the judged checks too.
 * Exits 1 when a runnable case passes under nop or does not reach its checks.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { inventory } from './fidelity/inventory.ts'
import { runUnderNop, type NopOutcome } from './fidelity/nop-run.ts'
import { nopVerdict, renderFidelity } from './fidelity/table.ts'

const USAGE = 'usage: npm run fidelity -- <folder of REAL task files and/or OSUniverse cases> [--no-run]'

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'no-run': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } } })
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (positionals.length !== 1) return fail(USAGE)
  const root = resolve(positionals[0]!)
  if (!existsSync(root)) return fail(`fidelity: no such folder ${positionals[0]}`)
  const folders = inventory(root)
  if (folders.length === 0) return fail(`fidelity: ${positionals[0]} holds no REAL task files (*.json) or OSUniverse cases (<category>/*.yaml)`)
  let nop: Map<string, Map<string, NopOutcome>> | null = null
  if (!values['no-run']) {
    nop = new Map()
    for (const folder of folders) {
      if (!folder.rows.some((row) => row.loaded && !row.reason)) continue
      process.stderr.write(`fidelity: running ${folder.suite}'s runnable cases under nop...\n`)
      nop.set(folder.suite, await runUnderNop(process.cwd(), folder))
    }
  }
  process.stdout.write(`fidelity of ${positionals[0]} (${new Date().toISOString().slice(0, 10)})\n\n${renderFidelity(folders, nop)}`)
  const wrong = nop ? folders.flatMap((f) => f.rows.filter((row) => row.loaded && !row.reason && nop!.get(f.suite) && nopVerdict(nop!.get(f.suite)!.get(row.id!)).sound === false)) : []
  return wrong.length ? 1 : 0
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`)
  return 2
}

process.exitCode = await main()
