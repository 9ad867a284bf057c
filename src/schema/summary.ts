import { z } from 'zod'

export const DurationStats = z.object({
  count: z.number().int(),
  mean_ms: z.number().nullable(),
  median_ms: z.number().nullable(),
  p90_ms: z.number().nullable(),
})
export type DurationStats = z.infer<typeof DurationStats>

/**
 * Tasks by outcome. passed..unscored partition `total`; a person's `human_score` decides a
 * reviewed task's outcome. `cached` counts, of `total`, the results reused from an earlier run.
 */
export const Tally = z.object({
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  error: z.number().int(),
  timeout: z.number().int(),
  skipped: z.number().int(),
  /** Skipped because a judged check got no verdict (no grader, or a grader fault): neither passed nor failed. */
  unscored: z.number().int().default(0),
  cached: z.number().int().default(0),
  /** passed / (total - skipped - unscored); null when nothing was scored. */
  success_rate: z.number().nullable(),
})
export type Tally = z.infer<typeof Tally>

/** A task whose human score contradicts its automatic outcome (1 = passed, 0 = anything else). */
export const Disagreement = z.object({
  id: z.string(),
  ai_score: z.number(),
  human_score: z.number(),
  human_comment: z.string().nullable(),
})
export type Disagreement = z.infer<typeof Disagreement>

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
  /** `status` is the outcome after human review; `reviewed` says a person set it. */
  tasks: z.array(z.object({ id: z.string(), status: z.string(), reviewed: z.boolean().default(false), duration_ms: z.number(), file: z.string() })),
})
export type RunSummary = z.infer<typeof RunSummary>
