import { z } from 'zod'
import { CheckSpec } from './task.ts'

/** 1 pass, 0 fail, -1 unscored: no verdict (no grader, a grader error, an unparsable answer, a split vote). */
export const JudgeScore = z.literal([1, 0, -1])
export type JudgeScore = z.infer<typeof JudgeScore>

/** One question of a judge's checklist, answered from the evidence. */
export const ChecklistItem = z.object({ question: z.string(), answer: z.string(), met: z.boolean() })
export type ChecklistItem = z.infer<typeof ChecklistItem>

/** One grader model's answer to one judged check. */
export const Vote = z.object({
  model: z.string(),
  score: JudgeScore,
  comment: z.string().nullable(),
  checklist: z.array(ChecklistItem),
  /** Why this model gave no verdict (after its retries); null when it did. */
  error: z.string().nullable(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
})
export type Vote = z.infer<typeof Vote>

/**
 * A judged check as it ran: what was asked (the CheckSpec, so a stored run can be re-graded)
 * and every grader's vote.
 */
export const JudgedCheck = CheckSpec.extend({
  votes: z.array(Vote),
  /** Why the check is unscored; null when it has a verdict. */
  error: z.string().nullable(),
})
export type JudgedCheck = z.infer<typeof JudgedCheck>
