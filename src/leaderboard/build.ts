import { basename } from 'node:path'
import { storedRunFacts } from '../runs/stored-facts.ts'
import { reduceEpochs } from '../runs/epochs.ts'
import { isFaulted } from '../runs/outcome.ts'
import type { RunFolder } from '../runs/folder.ts'
import { durationStats } from '../runs/stats.ts'
import type { TestCaseRun } from '../schema/run.ts'
import type { RunSummary } from '../schema/summary.ts'
import { recordKey, taskKey } from '../schema/task.ts'
import { graderOf } from './grader.ts'
import { Leaderboard, type Cell, type LeaderboardRow } from './schema.ts'

/** The runs of one agent × model × grader, before their rates are worked out. */
interface Pool {
  agent: string
  model: string | null
  grader: string
  runs: { run_id: string; folder: string }[]
  records: TestCaseRun[]
  costs: (RunSummary['cost'] | undefined)[]
}

/**
 * The leaderboard of run folders: one row per agent × model × grader, its runs pooled (their
 * records together, so a task run in two runs has two attempts), rates per suite and overall,
 * and which tasks each row covers against every task some row has.
 */
export function buildLeaderboard(folders: readonly RunFolder[], skipped: readonly string[] = [], now = new Date()): Leaderboard {
  const pools = poolRuns(folders)
  const reduced = pools.map((pool) => {
    const records = distinctAttempts(pool.records)
    return { pool, records, overall: reduceEpochs(records) }
  })
  // A row covers the tasks its rate is over: those with a scored attempt.
  const covered = reduced.map(({ overall }) => new Set(overall.by_task.filter((t) => t.attempts > 0).map((t) => t.key)))
  const allTasks = [...new Set(covered.flatMap((set) => [...set]))].sort(byKey)
  const suites = [...new Set(reduced.flatMap(({ records }) => records.map((r) => r.category)))].sort()
  const rows = reduced.map(({ pool, records, overall }, i): LeaderboardRow => {
    const tasks = covered[i]!
    const ran = records.filter((r) => r.agent_status !== 'not_run')
    const bySuite = Object.fromEntries(
      suites.flatMap((suite) => {
        const inSuite = records.filter((r) => r.category === suite)
        return inSuite.length > 0 ? [[suite, cellOf(inSuite)]] : []
      }),
    )
    return {
      agent: pool.agent,
      model: pool.model,
      grader: pool.grader,
      runs: pool.runs,
      overall: cellOf(records, overall),
      by_suite: bySuite,
      coverage: {
        tasks: tasks.size,
        of: allTasks.length,
        suites: [...new Set(records.filter((r) => tasks.has(taskKey(r))).map((r) => r.category))].sort(),
        complete: tasks.size === allTasks.length,
        missing: allTasks.filter((key) => !tasks.has(key)),
      },
      per_task: {
        agent_tokens: meanOf(ran, (r) => r.input_tokens + r.output_tokens),
        grader_tokens: meanOf(ran, (r) => r.validation_input_tokens + r.validation_output_tokens),
        cost_usd: costPerTask(pool),
        median_duration_ms: durationStats(ran.map((r) => r.duration_ms)).median_ms,
      },
    }
  })
  return Leaderboard.parse({
    schema_version: 1,
    generated_at: now.toISOString(),
    suites,
    tasks: allTasks,
    rows: rows.sort(byRate),
    skipped: [...skipped],
  })
}

/** Groups the folders by agent × model × grader, in the order first seen. */
function poolRuns(folders: readonly RunFolder[]): Pool[] {
  const pools = new Map<string, Pool>()
  for (const folder of folders) {
    const records = folder.records.map((stored) => stored.run)
    const facts = storedRunFacts(folder, {})
    const grader = graderOf(folder.dir, records)
    const key = JSON.stringify([facts.agent, facts.agent_model, grader])
    const pool = pools.get(key) ?? { agent: facts.agent, model: facts.agent_model, grader, runs: [], records: [], costs: [] }
    pool.runs.push({ run_id: facts.run_id, folder: basename(folder.dir) })
    pool.records.push(...records)
    pool.costs.push(folder.summary?.cost)
    pools.set(key, pool)
  }
  return [...pools.values()]
}

/**
 * One record per attempt. A result a later run reused (`cached_from`) is the same attempt as its
 * original, not a second one: pooling both would count it twice and narrow the interval for
 * nothing. The later copy is kept, since its checks ran last.
 */
function distinctAttempts(records: readonly TestCaseRun[]): TestCaseRun[] {
  const latest = new Map<string, TestCaseRun>()
  for (const record of records) {
    const origin = `${record.cached_from ?? record.run_id}|${recordKey(record)}`
    const seen = latest.get(origin)
    if (!seen || record.finished_at > seen.finished_at) latest.set(origin, record)
  }
  return [...latest.values()]
}

/** A rate over records, their attempts grouped by task (reduceEpochs: the summary's rule, faulted attempts left out and counted). */
function cellOf(records: readonly TestCaseRun[], reduction = reduceEpochs(records)): Cell {
  return {
    tasks: reduction.tasks,
    attempts: reduction.by_task.reduce((sum, task) => sum + task.attempts, 0),
    success_rate: reduction.success_rate,
    interval: reduction.interval,
    faulted: records.filter(isFaulted).length,
  }
}

/** The pooled runs' cost over the attempts they ran; null unless every run's summary priced both sides. */
function costPerTask(pool: Pool): number | null {
  let total = 0
  for (const cost of pool.costs) {
    if (!cost || cost.agent === null || cost.grader === null) return null
    total += cost.agent + cost.grader
  }
  const ran = pool.records.filter((r) => r.agent_status !== 'not_run').length
  return ran > 0 ? total / ran : null
}

function meanOf(records: readonly TestCaseRun[], value: (record: TestCaseRun) => number): number | null {
  return records.length > 0 ? records.reduce((sum, r) => sum + value(r), 0) / records.length : null
}

function byKey(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true })
}

/** Best overall rate first; rows without one last; ties by name. */
function byRate(a: LeaderboardRow, b: LeaderboardRow): number {
  const rate = (row: LeaderboardRow) => row.overall.success_rate ?? -1
  return rate(b) - rate(a) || `${a.agent} ${a.model} ${a.grader}`.localeCompare(`${b.agent} ${b.model} ${b.grader}`)
}
