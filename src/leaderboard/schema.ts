import { z } from 'zod'
import { Interval } from '../stats/index.ts'

/** One success rate of a row: overall or one suite's, over the tasks (and attempts) the row has there. */
export const Cell = z.object({
  /** Tasks with at least one scored attempt. */
  tasks: z.number().int().nonnegative(),
  /** Scored attempts: a task run in two pooled runs counts twice. */
  attempts: z.number().int().nonnegative(),
  /** Mean over tasks of each task's share of passed attempts; null when nothing was scored. */
  success_rate: z.number().nullable(),
  /** 95%, as reduceEpochs makes it: Wilson with one attempt per task, else Wilson at the clustered effective sample size; null when nothing was scored. */
  interval: Interval.nullable(),
  /** Attempts left out of the rate for a fault not of the agent's doing (a killed container, the model API down), as the run summary's `faulted`. */
  faulted: z.number().int().nonnegative().default(0),
})
export type Cell = z.infer<typeof Cell>

/** Which tasks a row's rate is over (those with a scored attempt), against every task some row has. */
export const Coverage = z.object({
  tasks: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  suites: z.array(z.string()),
  /** False when the row misses a task another row has: its rates are over a different set. */
  complete: z.boolean(),
  /** Task keys some other row has and this one lacks. */
  missing: z.array(z.string()),
})
export type Coverage = z.infer<typeof Coverage>

/** One agent × model × grader, its runs pooled. */
export const LeaderboardRow = z.object({
  agent: z.string(),
  model: z.string().nullable(),
  /** The grader model(s) that voted, `a + b` for a panel; "none" for a run without a grader. */
  grader: z.string(),
  /** The pooled runs: id and folder name under the results folder. */
  runs: z.array(z.object({ run_id: z.string(), folder: z.string() })),
  overall: Cell,
  by_suite: z.record(z.string(), Cell),
  coverage: Coverage,
  /** Means per attempt the agent ran (skipped attempts aside). */
  per_task: z.object({
    agent_tokens: z.number().nullable(),
    grader_tokens: z.number().nullable(),
    /** USD, from the pooled runs' summary costs; null when any of them has no cost (no price table, or a model without a price). */
    cost_usd: z.number().nullable(),
    median_duration_ms: z.number().nullable(),
  }),
})
export type LeaderboardRow = z.infer<typeof LeaderboardRow>

export const Leaderboard = z.object({
  schema_version: z.literal(1),
  generated_at: z.string(),
  /** Every suite (record `category`) some row has, sorted. */
  suites: z.array(z.string()),
  /** Every task key some row has a scored attempt of. */
  tasks: z.array(z.string()),
  rows: z.array(LeaderboardRow),
  /** Folders of the results folder that are not run folders (no summary, config or record). */
  skipped: z.array(z.string()),
})
export type Leaderboard = z.infer<typeof Leaderboard>
