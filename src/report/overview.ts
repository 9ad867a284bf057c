import type { TestCaseRun } from '../schema/run.ts'
import type { DurationStats, RerunFaulted, RunSummary, Tally } from '../schema/summary.ts'
import { recordKey } from '../schema/task.ts'
import { effectiveStatus, isFaulted, isUnscored } from '../runs/outcome.ts'
import { rerunFaulted } from '../runs/rerun.ts'
import { durationStats, tally, weightedScore } from '../runs/stats.ts'
import { reduceEpochs, type EpochReduction } from '../runs/epochs.ts'
import { agentNameFromYaml } from './format.ts'

/** Which filter button shows a task: failed covers failed, error and timeout. */
export type Outcome = 'passed' | 'failed' | 'skipped'

/** After human review, as the summary counts it: a person's score wins over the harness's status. */
export function outcomeOf(run: TestCaseRun): Outcome {
  const status = effectiveStatus(run)
  if (status === 'passed') return 'passed'
  // Not scored: a faulted task (not the agent's doing) is in no rate either.
  if (status === 'skipped' || status === 'aborted' || isFaulted(run)) return 'skipped'
  return 'failed'
}

/** The status a reader should see: the outcome after review, "unscored" for a skip for want of a grader verdict, "faulted" for a fault not of the agent's doing. */
export function statusLabel(run: TestCaseRun): string {
  return isUnscored(run) ? 'unscored' : isFaulted(run) ? 'faulted' : effectiveStatus(run)
}

export function anchor(run: TestCaseRun): string {
  return `task-${recordKey(run)}`
}

/** What the header shows; from summary.json, or worked out from the records when there is none. */
export interface Overview {
  agent: string | null
  model: string | null
  startedAt: string | null
  finishedAt: string | null
  totals: Tally
  weightedScore: number | null
  duration: { all: DurationStats; passed: DurationStats }
  tokens: RunSummary['tokens']
  cost: RunSummary['cost']
  /** The rate's interval and, over several epochs, pass@k and pass^k. */
  epochs: EpochReduction
  /** Set when a signal stopped the run (from its summary). */
  interrupted: RunSummary['interrupted'] | null
  /** The faulted tasks and the command that re-runs them; null when none. */
  rerunFaulted: RerunFaulted | null
}

export function overviewOf(records: readonly TestCaseRun[], summary: RunSummary | null): Overview {
  if (summary) {
    return {
      agent: summary.agent,
      model: summary.agent_model,
      startedAt: summary.started_at,
      finishedAt: summary.finished_at,
      totals: summary.totals,
      weightedScore: summary.weighted_score,
      duration: summary.duration,
      tokens: summary.tokens,
      cost: summary.cost,
      epochs: summary.epochs ?? reduceEpochs(records),
      interrupted: summary.interrupted ?? null,
      // A summary written before faulted tasks were set aside has none: its rates counted them.
      rerunFaulted: summary.rerun_faulted ?? null,
    }
  }
  const sum = (value: (run: TestCaseRun) => number) => records.reduce((total, run) => total + value(run), 0)
  const starts = records.map((r) => r.started_at).sort()
  const ends = records.map((r) => r.finished_at).sort()
  const first = records[0]
  return {
    agent: first ? agentNameFromYaml(first.agent_yaml) : null,
    model: first?.agent_model ?? null,
    startedAt: starts[0] ?? null,
    finishedAt: ends.at(-1) ?? null,
    totals: tally(records),
    weightedScore: weightedScore(records),
    duration: {
      all: durationStats(records.map((r) => r.duration_ms)),
      passed: durationStats(records.filter((r) => r.status === 'passed').map((r) => r.duration_ms)),
    },
    tokens: {
      input: sum((r) => r.input_tokens),
      output: sum((r) => r.output_tokens),
      validation_input: sum((r) => r.validation_input_tokens),
      validation_output: sum((r) => r.validation_output_tokens),
    },
    cost: undefined,
    interrupted: null,
    epochs: reduceEpochs(records),
    rerunFaulted: rerunFaulted(records),
  }
}
