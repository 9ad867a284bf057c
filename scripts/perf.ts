/**
 * How fast agentest is, measured against the same work done without a harness, in one
 * invocation (P1-P6). Each comparison alternates agentest and its bare counterpart
 * (plain Playwright or plain dockerode, in scripts/perf/) over several rounds and reports medians:
 *
 *   npm run perf                                   # P1-P6, 3 rounds each
 *   npm run perf -- --only p1,p2 --rounds 1        # some of them
 *   npm run perf -- --quick                        # small forms of each, for a smoke check
 *   npm run perf -- suite [tasks/omnizon] [--workers 1,2,4] [-t '<pattern>']
 *
 * Prints one table and writes it as JSON (runs/perf/<time>.json, or --json <file>). Exits 1 only
 * when a comparison found a correctness problem (a task that did not pass, a different /finish
 * diff), never because of a time; 2 on bad arguments.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { Comparison, type CompareOptions } from './perf/comparison.ts'
import { timeSuite } from './perf/suite.ts'

const USAGE = [
  'usage: npm run perf -- [--only p1,p2,p3,p5,p6] [--rounds N] [--quick] [--json <file>]',
  "       npm run perf -- suite [tasks/<suite>] [--workers 1,2,4] [-t '<pattern>']",
].join('\n')
const ROOT = resolve(import.meta.dirname, '..')

const MODULES = ['p1', 'p2', 'p3', 'p5', 'p6'] as const
type ModuleName = (typeof MODULES)[number]

/** Each module with its full form and its quick form (a subset small enough for a smoke check). */
const COMPARISONS: Record<ModuleName, (base: CompareOptions, quick: boolean) => Promise<Comparison[]>> = {
  p1: async (base, quick) => (await import('./perf/p1-replay.ts')).compare({ ...base, ...(quick ? { tasks: 'omnizon-(1|2|4)\\b' } : {}) }),
  p2: async (base, quick) => (await import('./perf/p2-desktop.ts')).compare({ ...base, ...(quick ? { apps: ['xterm'], whole: false } : {}) }),
  p3: async (base, quick) =>
    (await import('./perf/p3-concurrency.ts')).compare({ ...base, ...(quick ? { tasks: ['omnizon-1', 'omnizon-2', 'omnizon-4', 'omnizon-5'], concurrency: 2, delayMs: 200 } : {}) }),
  p5: async (base, quick) =>
    (await import('./perf/p5-many.ts')).compare({ ...base, ...(quick ? { tasks: ['omnizon-1', 'omnizon-2'], workers: 2, attempts: 4, delayMs: 500 } : {}) }),
  p6: async (base, quick) => (await import('./perf/p6-different.ts')).compare({ ...base, ...(quick ? { tasks: ['omnizon-1', 'omnizon-2', 'omnizon-4'], files: 4, delayMs: 500 } : {}) }),
}

const Args = z.object({
  only: z.array(z.enum(MODULES)).min(1),
  rounds: z.coerce.number().int().min(1).max(20),
  quick: z.boolean(),
  json: z.string().min(1).optional(),
})

function fail(message: string, code = 2): never {
  process.stderr.write(`perf: ${message}\n`)
  process.exit(code)
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        only: { type: 'string' },
        rounds: { type: 'string' },
        quick: { type: 'boolean', default: false },
        json: { type: 'string' },
        workers: { type: 'string', default: '1,2,4' },
        t: { type: 'string', short: 't' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
  }
}

/** The machine the numbers were taken on: they mean nothing without it. */
function machine(): string {
  const model = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU'
  let browser = 'no chromium'
  try {
    browser = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim()
  } catch {
    // Another browser may be configured; the modules say which they used.
  }
  return `${cpus().length} cores (${model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${browser}`
}

function ratioCell(row: Comparison): string {
  // A memory row compares with a bound (10 GB) or with the bare script's own figure (goal "≤ 1.5x").
  return row.unit === 'MB' && !row.goal.endsWith('x') ? `${row.ratio.toFixed(2)}x of bound` : `${row.ratio.toFixed(2)}x`
}

function valueCell(median: number, unit: Comparison['unit']): string {
  return unit === 'MB' ? `${Math.round(median)} MB` : `${median.toFixed(1)} s`
}

export function renderTable(rows: Comparison[]): string {
  const lines = [
    ['id', 'work', 'agentest', 'without a harness', 'ratio', 'goal', 'met'],
    ...rows.map((row) => [
      row.id,
      row.work,
      valueCell(row.harness.median_s, row.unit),
      `${valueCell(row.bare.median_s, row.unit)} (${row.bare_label})`,
      ratioCell(row),
      row.goal,
      row.problems.length > 0 ? 'WRONG' : row.goal === '—' ? '—' : row.met ? 'yes' : 'no',
    ]),
  ]
  const widths = lines[0]!.map((_, col) => Math.max(...lines.map((l) => l[col]!.length)))
  return lines.map((l) => l.map((cell, col) => (col <= 1 || col === 3 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ').trimEnd()).join('\n')
}

async function comparisons(values: ReturnType<typeof parse>['values']): Promise<void> {
  const parsed = Args.safeParse({
    only: (values.only ?? MODULES.join(',')).split(',').map((m) => m.trim().toLowerCase()),
    rounds: values.rounds ?? (values.quick ? 1 : 3),
    quick: values.quick,
    json: values.json,
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    fail(`--${String(issue?.path[0] ?? 'arguments')}: ${issue?.message}\n${USAGE}`)
  }
  const args = parsed.data
  const log = (line: string) => process.stderr.write(`perf: ${line}\n`)
  const started = new Date()
  const rows: Comparison[] = []
  for (const name of args.only) {
    log(`${name.toUpperCase()}…`)
    rows.push(...z.array(Comparison).parse(await COMPARISONS[name]({ rounds: args.rounds, log }, args.quick)))
  }
  const report = { date: started.toISOString(), machine: machine(), rounds: args.rounds, quick: args.quick, comparisons: rows }
  const file = resolve(args.json ?? join(ROOT, 'runs', 'perf', `${started.toISOString().replaceAll(':', '-').slice(0, 19)}.json`))
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)

  process.stdout.write(`perf on ${report.date.slice(0, 10)}, ${report.machine}; medians of ${args.rounds} round${args.rounds === 1 ? '' : 's'}${args.quick ? ' (quick forms)' : ''}\n\n`)
  process.stdout.write(`${renderTable(rows)}\n`)
  const notes = rows.flatMap((row) => row.notes.map((note) => `  ${row.id}: ${note}`))
  if (notes.length > 0) process.stdout.write(`\n${notes.join('\n')}\n`)
  const problems = rows.flatMap((row) => row.problems.map((problem) => `  ${row.id}: ${problem}`))
  process.stdout.write(`\njson: ${file}\n`)
  if (problems.length > 0) {
    process.stdout.write(`\ncorrectness problems (the times above do not compare like with like):\n${problems.join('\n')}\n`)
    process.exitCode = 1
  }
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2)
  if (first === 'suite') {
    const { values, positionals } = parse(rest)
    const workers = values.workers.split(',').map((w) => Number(w.trim()))
    if (workers.length === 0 || workers.some((w) => !Number.isInteger(w) || w < 1)) fail(`--workers: positive integers separated by commas: ${values.workers}`, 1)
    const table = await timeSuite({ targets: positionals.length > 0 ? positionals : ['tasks/omnizon'], workers, filter: values.t, fail: (m) => fail(m, 1) })
    process.stdout.write(`${table}\n`)
    return
  }
  const { values, positionals } = parse(process.argv.slice(2))
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  if (positionals.length > 0) fail(`unexpected ${positionals.join(' ')} (task folders go after "suite")\n${USAGE}`)
  await comparisons(values)
}

await main()
