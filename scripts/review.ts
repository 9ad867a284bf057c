/**
 * Human review of a stored run (OSUniverse's human_score, which wins over the automatic outcome):
 *
 *   npm run review -- <run folder | run id> <task id> --score <0|1> [--comment "..."]
 *   npm run review -- <run folder | run id> --list
 *
 * Scoring sets human_score and human_comment in <task>.json (nothing else changes) and rewrites
 * the run's summary.json from the records on disk.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError, loadConfig } from '../src/config/index.ts'
import { readRunFolder, type RunFolder } from '../src/runs/folder.ts'
import { disagreement } from '../src/runs/outcome.ts'
import { rewriteSummary } from '../src/report/rebuild.ts'
import { storedRunFacts } from '../src/runs/stored-facts.ts'
import { resolveRunFolder, shownPath } from '../src/runs/resolve.ts'
import { findRecord, parseHumanScore, withHumanReview } from '../src/runs/review.ts'
import { recordKey } from '../src/schema/task.ts'
import { writeJsonAtomic } from '../src/files/atomic.ts'

const USAGE = [
  'usage: npm run review -- <run folder | run id> <task id> --score <0|1> [--comment "..."]',
  '       npm run review -- <run folder | run id> --list',
].join('\n')

function fail(message: string): never {
  process.stderr.write(`review: ${message}\n`)
  process.exit(1)
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { score: { type: 'string' }, comment: { type: 'string' }, list: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    })
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parse()
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  const listing = values.list === true
  if (positionals.length !== (listing ? 1 : 2)) fail(USAGE)
  // Checked before anything is read, so a typo costs nothing.
  const score = listing ? null : parseHumanScore(values.score)

  const root = process.cwd()
  const config = loadConfig(root).config
  const dir = resolveRunFolder(positionals[0]!, resolve(root, config.run.results_dir))
  const folder = readRunFolder(dir)
  if (score === null) return list(folder)

  const stored = findRecord(folder, positionals[1]!)
  const key = recordKey(stored.run)
  const comment = values.comment ?? null
  await writeJsonAtomic(stored.file, withHumanReview(stored, score, comment))
  const reviewed = { ...stored.run, human_score: score, human_comment: comment }
  const disagrees = disagreement(reviewed, key) ? ' · disagrees with the automatic outcome' : ''
  process.stdout.write(`${key}: human_score ${stored.run.human_score} → ${score} (status ${stored.run.status}, ai_score ${stored.run.ai_score})${disagrees}\n`)

  const summary = await rewriteSummary(dir, config.prices)
  const t = summary.totals
  const rate = t.success_rate === null ? '—' : `${(t.success_rate * 100).toFixed(1)}%`
  process.stdout.write(
    `${shownPath(dir)}/summary.json and report.html rewritten: ${t.passed}/${t.total} passed (${rate}) · ${summary.human_reviewed} human-reviewed · ${plural(summary.disagreements.length, 'disagreement')}\n`,
  )
}

/** One line per task: its status, the grader's score and the person's. */
function list(folder: RunFolder): void {
  const facts = storedRunFacts(folder, {})
  const rows = [
    ['task', 'status', 'ai_score', 'human_score', 'human_comment'],
    ...folder.records.map(({ run }) => [recordKey(run), run.status, String(run.ai_score), String(run.human_score), run.human_comment ?? '']),
  ]
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)))
  process.stdout.write(`run ${facts.run_id} · agent ${facts.agent} · ${plural(folder.records.length, 'task')} (${shownPath(folder.dir)})\n`)
  for (const row of rows) process.stdout.write(`  ${row.map((cell, col) => cell.padEnd(widths[col]!)).join('  ').trimEnd()}\n`)
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

try {
  await main()
} catch (error) {
  if (error instanceof InputError) fail(error.message)
  throw error
}
