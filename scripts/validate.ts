/**
 * Is a task sound? One command for the verdict:
 *
 *   npm run validate -- [task ids, task files or folders]   (none: every task)
 *
 * Runs the tasks under oracle (must pass), nop (must fail), every near miss, declared and
 * generated (each must fail) and every alternative (each must pass), then prints one table with
 * a verdict per task. Exits 0 only when every task is sound; the four runs' records stay in
 * --out (a fresh temporary folder by default) for reading why, each with its steps and final
 * screen (--step-screenshots keeps a screenshot after every step too).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { renderGate } from '../src/validity/gate.ts'
import { validate } from '../src/validity/validate.ts'
import { cli } from './cli.ts'

const USAGE = 'usage: npm run validate -- [task ids, task files or folders] [--out <folder>] [--config <vitest config>] [--step-screenshots]'
const script = cli('validate', USAGE)

async function main(): Promise<void> {
  const { values, positionals } = script.parse({ out: { type: 'string' }, config: { type: 'string' }, 'step-screenshots': { type: 'boolean' } })
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  const root = process.cwd()
  const outDir = values.out ? resolve(values.out) : mkdtempSync(join(tmpdir(), 'agentest-validate-'))
  const targets = positionals.length ? positionals : ['tasks']
  process.stdout.write(`validate: ${targets.join(' ')} under oracle, nop, near-miss and alternative (records: ${outDir})\n`)
  const { rows } = await validate({
    root,
    targets,
    outDir,
    ...(values.config ? { config: values.config } : {}),
    stepScreenshots: values['step-screenshots'] ?? false,
    log: (line) => process.stdout.write(`validate: ${line}\n`),
  })
  process.stdout.write(`${renderGate(targets.join(' '), rows)}\n`)
  // A task that cannot run here is listed, not judged: it neither passes nor fails the gate.
  process.exitCode = rows.every((row) => row.verdict !== 'unsound') ? 0 : 1
}

await script.run(main)
