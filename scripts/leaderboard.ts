/**
 * Writes the leaderboard over every run in the results folder, one row per agent × model × grader:
 *
 *   npm run leaderboard -- [results folder] [--json]
 *
 * The folder defaults to the config's run.results_dir (runs/). Writes <folder>/leaderboard.html
 * (opens from file://, links each run's report.html) and <folder>/leaderboard.json, and prints
 * their paths; --json prints the JSON instead (a Leaderboard, src/leaderboard/schema.ts).
 */
import { resolve } from 'node:path'
import { loadConfig } from '../src/config/index.ts'
import { writeLeaderboard } from '../src/leaderboard/index.ts'

import { cli } from './cli.ts'
const USAGE = 'usage: npm run leaderboard -- [results folder] [--json]'

const { fail, parse, run } = cli('leaderboard', USAGE)


async function main(): Promise<void> {
  const { values, positionals } = parse({ json: { type: 'boolean' } })
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  if (positionals.length > 1) fail(USAGE)
  const root = process.cwd()
  const dir = resolve(root, positionals[0] ?? loadConfig(root).config.run.results_dir)
  const written = await writeLeaderboard(dir)
  if (values.json) return void process.stdout.write(`${JSON.stringify(written.board, null, 2)}\n`)
  process.stdout.write(`${written.html}\n${written.json}\n`)
}

await run(main)
