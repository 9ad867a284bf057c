import { z } from 'zod'

export const DurationStats = z.object({
  count: z.number().int(),
  mean_ms: z.number().nullable(),
  median_ms: z.number().nullable(),
  p90_ms: z.number().nullable(),
})
export type DurationStats = z.infer<typeof DurationStats>

export const Tally = z.object({
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  error: z.number().int(),
  timeout: z.number().int(),
  skipped: z.number().int(),
  /** Skipped because a judged check got no verdict (no grader, or a grader fault): neither passed nor failed. */
  unscored: z.number().int().default(0),
  /** passed / (total - skipped - unscored); null when nothing was scored. */
  success_rate: z.number().nullable(),
})
export type Tally = z.infer<typeof Tally>

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
  /** OSUniverse's levels (paper..gold), for desktop tasks. */
  by_level: z.record(z.string(), Tally),
  /** OSUniverse's weighted score in percent: passed and total weighted 0.5/1/2/4/8 by level; null without levelled tasks. */
  weighted_score: z.number().nullable(),
  duration: z.object({ all: DurationStats, passed: DurationStats }),
  tokens: z.object({
    input: z.number().int(),
    output: z.number().int(),
    validation_input: z.number().int(),
    validation_output: z.number().int(),
  }),
  /** USD, from the config's `prices` (per million tokens); null where a model has no price. Absent without prices. */
  cost: z.object({ agent: z.number().nullable(), grader: z.number().nullable() }).optional(),
  tasks: z.array(z.object({ id: z.string(), status: z.string(), duration_ms: z.number(), file: z.string() })),
})
export type RunSummary = z.infer<typeof RunSummary>
