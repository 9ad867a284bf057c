import type { Prices } from '../schema/config.ts'
import type { TestCaseRun } from '../schema/run.ts'
import { RunSummary } from '../schema/summary.ts'
import { recordKey } from '../schema/task.ts'
import { runCost } from './cost.ts'
import { disagreement, effectiveStatus, isReviewed } from './outcome.ts'
import { reduceEpochs } from './epochs.ts'
import { rerunFaulted } from './rerun.ts'
import { durationStats, groupBy, tally, weightedScore } from './stats.ts'

/** What a summary says about the run besides its records. */
export interface RunFacts {
  run_id: string
  agent: string
  agent_model: string | null
  started_at: string
  finished_at: string
  /** The config's price table; empty leaves `cost` out unless `cost` is given. */
  prices: Prices
  /** A cost computed earlier (a stored summary's), used when there is no price table. */
  cost?: RunSummary['cost']
}

/** The run's summary.json from its TestCaseRun records; the same code for a live run and a stored folder. */
export function summarize(runs: readonly TestCaseRun[], facts: RunFacts): RunSummary {
  const sorted = [...runs].sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }))
  const cost = Object.keys(facts.prices).length ? runCost(sorted, facts.prices) : facts.cost
  const rerun = rerunFaulted(sorted)
  return RunSummary.parse({
    schema_version: 1,
    run_id: facts.run_id,
    agent: facts.agent,
    agent_model: facts.agent_model,
    started_at: facts.started_at,
    finished_at: facts.finished_at,
    totals: tally(sorted),
    by_suite: groupBy(sorted, (r) => r.category),
    by_difficulty: groupBy(sorted.filter((r) => r.difficulty), (r) => r.difficulty),
    by_challenge: groupBy(sorted.filter((r) => r.challenge_type), (r) => r.challenge_type),
    by_level: groupBy(sorted.filter((r) => r.level), (r) => r.level),
    weighted_score: weightedScore(sorted),
    human_reviewed: sorted.filter(isReviewed).length,
    disagreements: sorted.flatMap((r) => disagreement(r, recordKey(r)) ?? []),
    duration: {
      all: durationStats(sorted.map((r) => r.duration_ms)),
      passed: durationStats(sorted.filter((r) => effectiveStatus(r) === 'passed').map((r) => r.duration_ms)),
    },
    tokens: {
      input: sum(sorted, (r) => r.input_tokens),
      output: sum(sorted, (r) => r.output_tokens),
      validation_input: sum(sorted, (r) => r.validation_input_tokens),
      validation_output: sum(sorted, (r) => r.validation_output_tokens),
    },
    ...(cost ? { cost } : {}),
    epochs: reduceEpochs(sorted),
    ...(rerun ? { rerun_faulted: rerun } : {}),
    tasks: sorted.map((r) => ({ id: recordKey(r), status: effectiveStatus(r), reviewed: isReviewed(r), duration_ms: r.duration_ms, file: r.file })),
  })
}

function sum(runs: readonly TestCaseRun[], value: (run: TestCaseRun) => number): number {
  return runs.reduce((total, run) => total + value(run), 0)
}
