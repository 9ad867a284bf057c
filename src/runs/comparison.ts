import { z } from 'zod'
import { RunStatus } from '../schema/run.ts'
import { JudgedWithoutGrader } from '../schema/summary.ts'
import { Interval } from '../stats/index.ts'

/**
 * One side of a comparison. `unscored` counts the tasks its strict rate takes as not passed;
 * `judged_without_grader` and `faulted` the tasks left out of both its rates (as in the run's summary).
 */
export const ComparedRun = z.object({
  dir: z.string(),
  run_id: z.string(),
  agent: z.string(),
  tasks: z.number().int(),
  unscored: z.number().int(),
  judged_without_grader: JudgedWithoutGrader,
  /** Attempts that ended in a fault not of the agent's doing (the summary's `faulted`). */
  faulted: z.number().int().default(0),
})
export type ComparedRun = z.infer<typeof ComparedRun>

/** An attempt in both runs, by record key (id plus variant, plus `.e<N>` from epoch 2 on), with its outcome after human review in each. */
export const TaskChange = z.object({ key: z.string(), a: RunStatus, b: RunStatus })
export type TaskChange = z.infer<typeof TaskChange>

/** Success rates as fractions (0..1); `change` is b - a, null when either side scored nothing. */
export const RateChange = z.object({ a: z.number().nullable(), b: z.number().nullable(), change: z.number().nullable() })
export type RateChange = z.infer<typeof RateChange>

/**
 * B against A over the tasks (id plus variant) scored in both runs, attempts matched by epoch: each
 * task is one pair, so a task both runs pass or both fail says nothing about the difference and the
 * test rests on the tasks they disagree on.
 */
export const PairedComparison = z.object({
  /** Tasks with at least one scored attempt in each run. */
  tasks: z.number().int().positive(),
  /** The highest epoch among each run's records (1 for a one-epoch run). */
  epochs_a: z.number().int(),
  epochs_b: z.number().int(),
  /** Tasks passed in A and not in B; with several attempts, tasks where a larger share of A's attempts passed. */
  only_a_passed: z.number().int(),
  /** Tasks passed in B and not in A; with several attempts, tasks where a larger share of B's attempts passed. */
  only_b_passed: z.number().int(),
  /** B's success rate minus A's over these tasks (each task weighs the same, whatever its attempts), as a fraction. */
  difference: z.number(),
  /** A seeded paired bootstrap over tasks, at 1 - level. */
  interval: Interval,
  /**
   * `mcnemar-exact` when every task has one scored attempt on each side (p from the discordant
   * counts); else `paired-bootstrap`, whose p is a sign-flip permutation test over tasks.
   */
  test: z.enum(['mcnemar-exact', 'paired-bootstrap']),
  p_value: z.number(),
  /** The significance level: 0.05 unless `--level` said otherwise. */
  level: z.number(),
  /** p_value < level: a difference this large would be rare if the runs were alike. */
  distinguishable: z.boolean(),
})
export type PairedComparison = z.infer<typeof PairedComparison>

/** What `npm run compare -- <A> <B> --json` prints. */
export const RunComparison = z.object({
  schema_version: z.literal(1),
  a: ComparedRun,
  b: ComparedRun,
  /** Passed in B, did not in A. */
  newly_passing: z.array(TaskChange),
  /** Passed in A; failed, errored or timed out in B. */
  newly_failing: z.array(TaskChange),
  /** Failed, errored or timed out in both. */
  still_failing: z.array(TaskChange),
  still_passing: z.array(z.string()),
  /** Skipped, unscored or faulted on one side (and not passed in B): no verdict to compare. */
  not_scored: z.array(TaskChange),
  only_in_a: z.array(z.string()),
  only_in_b: z.array(z.string()),
  /** Passed / scored, as the summary's `success_rate`. */
  success_rate: RateChange,
  /** Counting unscored tasks as not passed, as the summary's `strict_success_rate`. */
  strict_success_rate: RateChange,
  by_suite: z.record(z.string(), RateChange),
  by_suite_strict: z.record(z.string(), RateChange),
  /** The paired difference in success rate and its test; null when no task is scored in both runs. */
  paired: PairedComparison.nullable(),
})
export type RunComparison = z.infer<typeof RunComparison>
