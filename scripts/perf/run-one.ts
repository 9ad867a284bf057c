/**
 * Runs one comparison module alone and prints its rows as JSON (progress on stderr):
 *
 *   npx tsx scripts/perf/run-one.ts p1 [--rounds 3] [--tasks 'omnizon-(1|2)\b']
 *   npx tsx scripts/perf/run-one.ts p2 [--rounds 3] [--apps xterm,mousepad] [--no-whole]
 */
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { Comparison } from './comparison.ts'
import { compare as p1 } from './p1-replay.ts'
import { APP_NAMES, compare as p2 } from './p2-desktop.ts'

const USAGE = "usage: npx tsx scripts/perf/run-one.ts p1|p2 [--rounds N] [--tasks '<-t pattern>'] [--apps xterm,mousepad] [--no-whole]"

const Args = z.object({
  module: z.enum(['p1', 'p2']),
  rounds: z.coerce.number().int().positive(),
  tasks: z.string().min(1).optional(),
  apps: z.array(z.enum(APP_NAMES)).min(1).optional(),
  whole: z.boolean(),
})

function parse(): z.infer<typeof Args> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '3' }, tasks: { type: 'string' }, apps: { type: 'string' }, 'no-whole': { type: 'boolean', default: false } },
  })
  const parsed = Args.safeParse({
    module: positionals[0],
    rounds: values.rounds,
    tasks: values.tasks,
    apps: values.apps?.split(',').map((a) => a.trim()),
    whole: !values['no-whole'],
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    process.stderr.write(`run-one: ${issue?.path.join('.') || 'arguments'}: ${issue?.message}\n${USAGE}\n`)
    process.exit(2)
  }
  return parsed.data
}

const args = parse()
const log = (line: string) => process.stderr.write(`perf: ${line}\n`)
const rows =
  args.module === 'p1'
    ? await p1({ rounds: args.rounds, log, tasks: args.tasks })
    : await p2({ rounds: args.rounds, log, apps: args.apps, whole: args.whole })
process.stdout.write(`${JSON.stringify(z.array(Comparison).parse(rows), null, 2)}\n`)
