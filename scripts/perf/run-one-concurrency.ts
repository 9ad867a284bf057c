/**
 * Runs one concurrency comparison alone and prints its rows as JSON (progress on stderr):
 *
 *   npx tsx scripts/perf/run-one-concurrency.ts p3 [--rounds 1] [--tasks omnizon-1,omnizon-2] [--concurrency 16] [--delay-ms 1000]
 *   npx tsx scripts/perf/run-one-concurrency.ts p5 [--rounds 1] [--attempts 64] [--workers 4] [--delay-ms 5000] [--cap-mb 14336]
 *   npx tsx scripts/perf/run-one-concurrency.ts p6 [--rounds 1] [--attempts 64] [--delay-ms 5000]   (--attempts: different task files)
 *
 * --oracle <run folder> replays an oracle run made earlier instead of recording one (3 min);
 * --keep-oracle keeps the one this run records (its folder is logged).
 */
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { Comparison } from './comparison.ts'
import { keepOracle, reuseOracle } from './concurrency-oracle.ts'
import { compare as p3 } from './p3-concurrency.ts'
import { compare as p5 } from './p5-many.ts'
import { compare as p6 } from './p6-different.ts'

const USAGE =
  'usage: npx tsx scripts/perf/run-one-concurrency.ts p3|p5|p6 [--rounds N] [--tasks omnizon-1,omnizon-2] [--concurrency N] [--attempts N] [--workers N] [--delay-ms N] [--cap-mb N] [--oracle <run folder>] [--keep-oracle]'

const Args = z.object({
  module: z.enum(['p3', 'p5', 'p6']),
  rounds: z.coerce.number().int().positive(),
  tasks: z.array(z.string().regex(/^omnizon-\d+$/, 'Omnizon task ids, e.g. omnizon-1,omnizon-2')).min(1).optional(),
  concurrency: z.coerce.number().int().positive().optional(),
  attempts: z.coerce.number().int().positive().optional(),
  workers: z.coerce.number().int().positive().optional(),
  delayMs: z.coerce.number().int().nonnegative().optional(),
  capMb: z.coerce.number().positive().optional(),
  oracle: z.string().min(1).optional(),
  keepOracle: z.boolean(),
})

function parse(): z.infer<typeof Args> {
  let parsed
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        rounds: { type: 'string', default: '1' },
        tasks: { type: 'string' },
        concurrency: { type: 'string' },
        attempts: { type: 'string' },
        workers: { type: 'string' },
        'delay-ms': { type: 'string' },
        'cap-mb': { type: 'string' },
        oracle: { type: 'string' },
        'keep-oracle': { type: 'boolean', default: false },
      },
    })
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  const checked = Args.safeParse({
    module: positionals[0],
    rounds: values.rounds,
    tasks: values.tasks?.split(',').map((t) => t.trim()),
    concurrency: values.concurrency,
    attempts: values.attempts,
    workers: values.workers,
    delayMs: values['delay-ms'],
    capMb: values['cap-mb'],
    oracle: values.oracle,
    keepOracle: values['keep-oracle'],
  })
  if (!checked.success) {
    const issue = checked.error.issues[0]
    return usage(`${issue?.path.join('.') || 'arguments'}: ${issue?.message}`)
  }
  return checked.data
}

function usage(message: string): never {
  process.stderr.write(`run-one-concurrency: ${message}\n${USAGE}\n`)
  process.exit(2)
}

const args = parse()
if (args.oracle) reuseOracle(args.oracle)
if (args.keepOracle) keepOracle()
const log = (line: string) => process.stderr.write(`perf: ${line}\n`)
const rows =
  args.module === 'p3'
    ? await p3({ rounds: args.rounds, log, tasks: args.tasks, concurrency: args.concurrency, delayMs: args.delayMs })
    : args.module === 'p5'
      ? await p5({ rounds: args.rounds, log, tasks: args.tasks, attempts: args.attempts, workers: args.workers, delayMs: args.delayMs, capMb: args.capMb })
      : await p6({ rounds: args.rounds, log, tasks: args.tasks, files: args.attempts, delayMs: args.delayMs })
process.stdout.write(`${JSON.stringify(z.array(Comparison).parse(rows), null, 2)}\n`)
