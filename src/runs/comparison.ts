import { z } from 'zod'
import { RunStatus } from '../schema/run.ts'
import { JudgedWithoutGrader } from '../schema/summary.ts'

/**
 * One side of a comparison. `unscored` counts the tasks its strict rate takes as not passed;
 * `judged_without_grader` the tasks left out of both its rates (as in the run's summary).
 */
export const ComparedRun = z.object({
  dir: z.string(),
  run_id: z.string(),
  agent: z.string(),
  tasks: z.number().int(),
  unscored: z.number().int(),
  judged_without_grader: JudgedWithoutGrader,
})
export type ComparedRun = z.infer<typeof ComparedRun>

/** A task in both runs, by record key (id plus variant), with its outcome after human review in each. */
export const TaskChange = z.object({ key: z.string(), a: RunStatus, b: RunStatus })
export type TaskChange = z.infer<typeof TaskChange>

/** Success rates as fractions (0..1); `change` is b - a, null when either side scored nothing. */
export const RateChange = z.object({ a: z.number().nullable(), b: z.number().nullable(), change: z.number().nullable() })
export type RateChange = z.infer<typeof RateChange>

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
  /** Skipped or unscored on one side (and not passed in B): no verdict to compare. */
  not_scored: z.array(TaskChange),
  only_in_a: z.array(z.string()),
  only_in_b: z.array(z.string()),
  /** Passed / scored, as the summary's `success_rate`. */
  success_rate: RateChange,
  /** Counting unscored tasks as not passed, as the summary's `strict_success_rate`. */
  strict_success_rate: RateChange,
  by_suite: z.record(z.string(), RateChange),
  by_suite_strict: z.record(z.string(), RateChange),
})
export type RunComparison = z.infer<typeof RunComparison>
