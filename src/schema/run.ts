import { z } from 'zod'
import { StepAction } from './action.ts'
import { TestCase } from './task.ts'
import { JudgedCheck } from './grading.ts'

/** One recorded step of a trajectory. `screenshot` is a PNG path relative to the run folder. */
export const Step = z.object({
  index: z.number().int().nonnegative(),
  timestamp: z.number(),
  action: StepAction,
  thought: z.string(),
  screenshot: z.string().nullable(),
  url: z.string().nullable(),
  error: z.string().nullable(),
})
export type Step = z.infer<typeof Step>

/** One check as it ran: every expectation in a task body becomes one of these. */
export const CheckResult = z.object({
  check: z.string(),
  passed: z.boolean(),
  /** 1 pass, 0 fail, -1 unscored (a judged check without a verdict). */
  score: z.number(),
  message: z.string().nullable(),
  /** A failed comparison's values in full, pretty-printed (the message may name them only in part). */
  expected: z.string().optional(),
  received: z.string().optional(),
  /** Their line diff (`- Expected` / `+ Received`), for objects, arrays and multi-line strings. */
  diff: z.string().optional(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** Set on judged checks (an LLM grader's verdict): what was asked and how each grader voted. */
  judge: JudgedCheck.optional(),
})
export type CheckResult = z.infer<typeof CheckResult>

/** A command run in the task's container for a check, and what it printed (OSUniverse's shape plus the exit code). */
export const CommandOutputCheckResult = z.object({ command: z.string(), output: z.string(), exit_code: z.number().int() })
export type CommandOutputCheckResult = z.infer<typeof CommandOutputCheckResult>

/**
 * How the task ended, from the harness's point of view. `aborted`: the run was interrupted while
 * the task was in flight; it is in no rate and runs again when the same command resumes the run.
 */
export const RunStatus = z.enum(['passed', 'failed', 'error', 'timeout', 'skipped', 'aborted'])
export type RunStatus = z.infer<typeof RunStatus>

/** How the agent's loop ended. */
export const AgentStatus = z.enum(['done', 'max_steps', 'error', 'timeout', 'aborted', 'not_run'])
export type AgentStatus = z.infer<typeof AgentStatus>

export const RunError = z.object({ kind: z.string(), message: z.string() })
export type RunError = z.infer<typeof RunError>

/**
 * The result of one task under one agent. Keys follow OSUniverse's TestCaseRun, with the
 * additions a user needs to read a run without the harness: ids, timing, the error, the
 * final answer and every check.
 */
export const TestCaseRun = TestCase.extend({
  schema_version: z.literal(1),
  run_id: z.string(),
  test_name: z.string(),
  file: z.string(),
  agent_yaml: z.string(),
  agent_model: z.string().nullable(),
  status: RunStatus,
  agent_status: AgentStatus,
  trajectory: z.array(Step),
  result: Step.nullable(),
  final_answer: z.string().nullable(),
  /** The graded state, relative to the run folder: a web clone's `/finish` JSON (finish.json), or on a desktop the observer's record of what the agent ran and changed (observed.json). */
  final_state: z.string().nullable(),
  /** Every model call of the agent (transcript.jsonl), relative to the run folder; null without one. */
  transcript: z.string().nullable().default(null),
  check_results: z.array(CheckResult),
  command_output_check_results: z.array(CommandOutputCheckResult),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  ai_score: z.number(),
  ai_comment: z.string().nullable(),
  human_score: z.number(),
  human_comment: z.string().nullable(),
  validation_input_tokens: z.number().int().nonnegative(),
  validation_output_tokens: z.number().int().nonnegative(),
  error: RunError.nullable(),
  started_at: z.string(),
  finished_at: z.string(),
  duration_ms: z.number().nonnegative(),
  /** Task, agent, model, max_steps and settings hash: a later run with the same key may reuse this result. */
  cache_key: z.string().nullable().default(null),
  /** True when this run reused an earlier result (no agent step, no model call) and re-checked its evidence. */
  cached: z.boolean().default(false),
  /** The run the reused result came from. */
  cached_from: z.string().nullable().default(null),
  /** Sandbox starts that failed for an infrastructure reason before the agent acted, each retried once more (run.infra_retries). */
  retries: z.array(RunError).default([]),
})
export type TestCaseRun = z.infer<typeof TestCaseRun>
