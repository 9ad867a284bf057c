/** What the perf side hands the bare computer-use script (bare-cua.ts) and what it prints back. */
import { z } from 'zod'

export const BareTask = z.object({
  /** Unique per attempt (the task id, or id + repeat). */
  key: z.string(),
  task_id: z.string(),
  goal: z.string(),
  start_path: z.string(),
  seed: z.string(),
  remove_popup: z.boolean(),
  expected_initial: z.unknown(),
  expected_diff: z.unknown(),
  expected_answer: z.string().nullable(),
})
export type BareTask = z.infer<typeof BareTask>

export const BareInput = z.object({
  tasks: z.array(BareTask).min(1),
  concurrency: z.number().int().positive(),
  base_url: z.string().url(),
  api_key: z.string(),
  model: z.string(),
  executable_path: z.string(),
  args: z.array(z.string()),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }),
  run_id: z.string(),
  max_turns: z.number().int().positive(),
})
export type BareInput = z.infer<typeof BareInput>

export const BareResult = z.object({ key: z.string(), calls: z.number().int(), duration_s: z.number(), problems: z.array(z.string()) })
export const BareOutput = z.object({ loop_s: z.number(), setup_s: z.number(), results: z.array(BareResult) })
export type BareOutput = z.infer<typeof BareOutput>
export type BareResult = z.infer<typeof BareResult>
