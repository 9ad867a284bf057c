import type { z } from 'zod'
import { TestCaseRun } from '../schema/run.ts'
import { TestCase } from '../schema/task.ts'

/** What the reporter works out from Vitest's result and the checks: never part of a task's record. */
const REPORTED = {
  schema_version: true,
  test_name: true,
  file: true,
  status: true,
  ai_score: true,
  ai_comment: true,
  human_score: true,
  human_comment: true,
  validation_input_tokens: true,
  validation_output_tokens: true,
} as const

// The task's own fields, but its step budget: the run's (the config's, or twice for a generated near miss).
const { max_steps: _budget, ...taskFields } = TestCase.shape
const TASK_FIELDS = Object.fromEntries(Object.keys(taskFields).map((key) => [key, true])) as { [K in keyof typeof taskFields]: true }

/**
 * What a task's run adds to its TestCase, as the session hands it to the reporter in task.meta:
 * every field of TestCaseRun but the task's own and what the reporter works out. A field added to
 * TestCaseRun is part of it without another edit.
 */
export const TaskRecord = TestCaseRun.omit({ ...TASK_FIELDS, ...REPORTED })
export type TaskRecord = z.infer<typeof TaskRecord>
