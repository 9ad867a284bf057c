import { z } from 'zod'

/** Task ids end up in file names and in Vitest's -t filter, so keep them plain. */
export const TaskId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'use lowercase letters, digits, ".", "_" and "-" (for example "omnizon-8")')

export const Difficulty = z.enum(['easy', 'medium', 'hard'])
export type Difficulty = z.infer<typeof Difficulty>

/** REAL's challenge types for web tasks. */
export const ChallengeType = z.enum(['action', 'retrieval', 'retrieval-action'])
export type ChallengeType = z.infer<typeof ChallengeType>

/** OSUniverse's levels; each one has a default step budget and a score weight. */
export const Level = z.enum(['paper', 'wood', 'bronze', 'silver', 'gold'])
export type Level = z.infer<typeof Level>
export const LEVEL_MAX_STEPS: Record<Level, number> = { paper: 5, wood: 25, bronze: 50, silver: 75, gold: 100 }
export const LEVEL_WEIGHT: Record<Level, number> = { paper: 0.5, wood: 1, bronze: 2, silver: 4, gold: 8 }

/** A check as declared on the task (judged rubrics land here; code checks are recorded as they run). */
export const CheckSpec = z.object({
  type: z.enum(['returned_result', 'final_screenshot', 'expected_flow', 'command_output']),
  value: z.string(),
  command: z.string().optional(),
})
export type CheckSpec = z.infer<typeof CheckSpec>

/**
 * The task as declared in a *.task.ts file. Keys follow OSUniverse's TestCase (id, name,
 * category, level, task, setup_cmd, desktop_image, checks) plus what web tasks need.
 */
export const TestCase = z.object({
  id: TaskId,
  name: z.string().min(1),
  category: z.string().min(1),
  level: Level.nullable(),
  task: z.string().trim().min(1, 'every task needs a goal'),
  setup_cmd: z.string().nullable(),
  desktop_image: z.string().nullable(),
  checks: z.array(CheckSpec),
  app: z.string().nullable(),
  start_path: z.string().nullable(),
  difficulty: Difficulty.nullable(),
  challenge_type: ChallengeType.nullable(),
  max_steps: z.number().int().positive(),
  /** Set when the run is of a deliberately wrong solution (the validity gate's near misses). */
  variant: z.string().nullable(),
  /** Which attempt this is when the run has several epochs (1-based); records before epochs were 1. */
  epoch: z.number().int().min(1).default(1),
})
export type TestCase = z.infer<typeof TestCase>

/** A task as the statistics see it: its id plus the near-miss variant, the same over every epoch. */
export function taskKey(testCase: Pick<TestCase, 'id' | 'variant'>): string {
  return testCase.variant ? `${testCase.id}--${testCase.variant.replaceAll(' ', '-')}` : testCase.id
}

/**
 * The name an attempt's files go by in a run folder: the task key, plus `.e<N>` from the second
 * epoch on (so a one-epoch run and a run's first epoch have the same names and compare directly).
 */
export function recordKey(testCase: Pick<TestCase, 'id' | 'variant'> & { epoch?: number }): string {
  const epoch = testCase.epoch ?? 1
  return epoch > 1 ? `${taskKey(testCase)}.e${epoch}` : taskKey(testCase)
}
