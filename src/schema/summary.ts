import { z } from 'zod'
import { EpochReduction } from './epochs.ts'

export const DurationStats = z.object({
  count: z.number().int(),
  mean_ms: z.number().nullable(),
  median_ms: z.number().nullable(),
  p90_ms: z.number().nullable(),
})
export type DurationStats = z.infer<typeof DurationStats>

/**
 * Tasks in a run without a grader whose judged check therefore had no verdict (and no person
 * scored them). Such a check can fail its task but never pass it, so these tasks are left out of
 * both rates; `failed` says how many of them failed (a deterministic check, an error, a timeout).
 */
export const JudgedWithoutGrader = z.object({ total: z.number().int(), failed: z.number().int() })
export type JudgedWithoutGrader = z.infer<typeof JudgedWithoutGrader>

/**
 * Tasks by outcome, and the rates (rule in src/runs/stats.ts `tally`). passed..unscored and
 * `faulted` partition `total`; a person's `human_score` decides a reviewed task's outcome.
 * `cached` counts, of `total`, the results reused from an earlier run.
 */
export const Tally = z
  .object({
    total: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    error: z.number().int(),
    timeout: z.number().int(),
    skipped: z.number().int(),
    /** Interrupted while in flight (Ctrl-C, SIGTERM): in no rate; the same command runs them again. */
    aborted: z.number().int().default(0),
    /**
     * Ended in a fault not of the agent's doing (a killed container, the model API down:
     * src/faults/kinds.ts `isNotAgentsDoing`): in no rate, as unscored tasks are, nor under error;
     * the summary's `rerun_faulted` runs them again. 0 in summaries written before it.
     */
    faulted: z.number().int().default(0),
    /**
     * Tasks that ended in a fault rather than by the agent's doing, by kind (src/faults/kinds.ts):
     * `model_error`, `sandbox_gone`, `out_of_memory`, `clone_down`, ... Each is also counted under
     * `faulted` (not the agent's doing), `aborted`, or its status (out_of_memory, a model request
     * refused as invalid: the agent's doing); none is ever reused by the cache.
     */
    faults: z.record(z.string(), z.number().int()).default({}),
    /** Skipped because a judged check got no verdict (no grader, or a grader fault): neither passed nor failed. */
    unscored: z.number().int().default(0),
    cached: z.number().int().default(0),
    /** Of `total`, set aside from both rates: judged tasks in a run without a grader. */
    judged_without_grader: JudgedWithoutGrader.default({ total: 0, failed: 0 }),
    /** Tasks with a verdict (passed, failed, error, timeout), less those set aside: the success rate's denominator. Faulted tasks are not among them. */
    scored: z.number().int().optional(),
    /** passed / scored; null when nothing was scored. */
    success_rate: z.number().nullable(),
    /** passed / (scored + unscored not set aside): an unscored task counts as not passed. */
    strict_success_rate: z.number().nullable().optional(),
  })
  // Summaries written before `scored` and the strict rate set nothing aside, so both follow from the counts.
  .transform((t) => ({
    ...t,
    scored: t.scored ?? t.total - t.skipped - t.unscored - t.aborted - t.faulted,
    strict_success_rate: t.strict_success_rate !== undefined ? t.strict_success_rate : ratio(t.passed, t.total - t.skipped - t.aborted - t.faulted),
  }))
export type Tally = z.infer<typeof Tally>

/** a / b, or null when b is 0 (nothing to rate). */
export function ratio(a: number, b: number): number | null {
  return b > 0 ? a / b : null
}

/** A task whose human score contradicts its automatic outcome (1 = passed, 0 = anything else). */
export const Disagreement = z.object({
  id: z.string(),
  ai_score: z.number(),
  human_score: z.number(),
  human_comment: z.string().nullable(),
})
export type Disagreement = z.infer<typeof Disagreement>

/** Faulted tasks (record keys), how many by fault kind, and the command that re-runs them (src/runs/rerun.ts). */
export const RerunFaulted = z.object({ tasks: z.array(z.string()), kinds: z.record(z.string(), z.number().int()), command: z.string() })
export type RerunFaulted = z.infer<typeof RerunFaulted>

export const RunSummary = z.object({
  schema_version: z.literal(1),
  run_id: z.string(),
  agent: z.string(),
  agent_model: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string(),
  totals: Tally,
  by_suite: z.record(z.string(), Tally),
  by_difficulty: z.record(z.string(), Tally),
  /** REAL's challenge types (action, retrieval, retrieval-action), for web tasks. */
  by_challenge: z.record(z.string(), Tally).default({}),
  /** OSUniverse's levels (paper..gold), for desktop tasks. */
  by_level: z.record(z.string(), Tally),
  /** OSUniverse's weighted score in percent: passed and total weighted 0.5/1/2/4/8 by level; null without levelled tasks. */
  weighted_score: z.number().nullable(),
  /** Tasks a person scored (`npm run review`); their score wins over the automatic outcome. */
  human_reviewed: z.number().int().default(0),
  disagreements: z.array(Disagreement).default([]),
  duration: z.object({ all: DurationStats, passed: DurationStats }),
  tokens: z.object({
    input: z.number().int(),
    output: z.number().int(),
    validation_input: z.number().int(),
    validation_output: z.number().int(),
  }),
  /** USD, from the config's `prices` (per million tokens); null where a model has no price. Absent without prices. */
  cost: z.object({ agent: z.number().nullable(), grader: z.number().nullable() }).optional(),
  /** The records reduced over epochs: the rate with its 95% interval, pass@k and pass^k (src/runs/epochs.ts). Absent in summaries written before epochs. */
  epochs: EpochReduction.optional(),
  /**
   * Set when the run stopped before its end: a signal (Ctrl-C, SIGTERM), or a Vitest worker that
   * died (Vitest ends the run then). The tasks that finished are in `tasks`; those in flight are
   * there as `aborted` (or `worker_killed`); `not_started` counts the tasks (and task files never
   * loaded) that never began. The same command resumes the run.
   */
  interrupted: z
    .object({
      cause: z.enum(['SIGINT', 'SIGTERM', 'worker_died']),
      not_started: z.number().int(),
      files_not_started: z.number().int(),
    })
    .optional(),
  /**
   * The tasks counted as `faulted` (record keys) and the command that runs exactly those again;
   * absent when there are none (and in summaries written before it).
   */
  rerun_faulted: RerunFaulted.optional(),
  /** `status` is the outcome after human review; `reviewed` says a person set it. */
  tasks: z.array(z.object({ id: z.string(), status: z.string(), reviewed: z.boolean().default(false), duration_ms: z.number(), file: z.string() })),
})
export type RunSummary = z.infer<typeof RunSummary>
