import { z } from 'zod'
import { Interval } from '../stats/interval.ts'

/** One task over its epochs. */
export const TaskReduction = z.object({
  /** taskKey(run): id plus variant, the same over epochs. */
  key: z.string(),
  /** Scored attempts, n. */
  attempts: z.number().int(),
  /** Passed attempts, c. */
  passed: z.number().int(),
  /** c/n; null when n = 0. */
  mean: z.number().nullable(),
  /** Unbiased pass@k (some of k attempts pass) for k = 1..n, keyed "1", "2", ... */
  pass_at_k: z.record(z.string(), z.number()),
  /** Unbiased pass^k (all of k attempts pass) for k = 1..n. */
  pass_hat_k: z.record(z.string(), z.number()),
})
export type TaskReduction = z.infer<typeof TaskReduction>

/** A run's records reduced over epochs: each task weighs the same however many attempts it has. */
export const EpochReduction = z.object({
  /** The highest epoch number among the records (1 for a one-epoch run, 0 without records). */
  epochs: z.number().int(),
  /** Tasks with at least one scored attempt. */
  tasks: z.number().int(),
  /** Mean over those tasks of each task's mean (equals tally's success_rate for one epoch); null without them. */
  success_rate: z.number().nullable(),
  /** 95%: Wilson when every scored task has one attempt, else Wilson at the clustered effective sample size (src/stats/clustered.ts). */
  interval: Interval.nullable(),
  /** Mean over tasks of pass@k, for k = 1..the fewest attempts of a scored task. */
  pass_at_k: z.record(z.string(), z.number()),
  pass_hat_k: z.record(z.string(), z.number()),
  /** Every task among the records (those without a scored attempt too), sorted by key. */
  by_task: z.array(TaskReduction),
})
export type EpochReduction = z.infer<typeof EpochReduction>
