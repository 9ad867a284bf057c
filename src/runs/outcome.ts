import { NEEDS_GRADER } from '../grading/judge/check-result.ts'
import type { RunStatus, TestCaseRun } from '../schema/run.ts'
import type { Disagreement } from '../schema/summary.ts'
import { isNotAgentsDoing } from '../faults/kinds.ts'

/** A person scored the task: human_score is -1 until then, 1 for a pass and 0 for a fail (OSUniverse). */
export function isReviewed(run: TestCaseRun): boolean {
  return run.human_score >= 0
}

/**
 * How the task counts in a summary: a person's score wins over the harness's status (OSUniverse's
 * precedence). A human fail keeps error and timeout, which already say how it failed.
 */
export function effectiveStatus(run: TestCaseRun): RunStatus {
  if (!isReviewed(run)) return run.status
  if (run.human_score === 1) return 'passed'
  return run.status === 'passed' || run.status === 'skipped' || run.status === 'aborted' ? 'failed' : run.status
}

/** Skipped because a judged check has no verdict, rather than for want of a sandbox; a human score settles it. */
export function isUnscored(run: TestCaseRun): boolean {
  return effectiveStatus(run) === 'skipped' && run.check_results.some((c) => c.judge && c.score === -1)
}

/**
 * A judged check ran without a grader configured, and no person scored the task. Such a check can
 * fail its task (with a deterministic check) but never pass it, so the task is left out of both rates.
 */
export function isJudgedWithoutGrader(run: TestCaseRun): boolean {
  return !isReviewed(run) && run.status !== 'passed' && run.check_results.some((c) => c.judge?.error === NEEDS_GRADER)
}

/**
 * The task ended in a fault the infrastructure or the provider caused (a killed container, the
 * model API down: isNotAgentsDoing), and no person scored it. It says nothing of the agent, so it
 * is left out of every rate, as an unscored task is, counted as `faulted`, and run again. An
 * aborted task keeps its own count; a pass stays a pass.
 */
export function isFaulted(run: TestCaseRun): boolean {
  return !isReviewed(run) && (run.status === 'failed' || run.status === 'error' || run.status === 'timeout') && isNotAgentsDoing(run.error)
}

/** The automatic outcome as a score: 1 passed, 0 failed, error or timeout; null when the task was not scored (skipped, aborted). */
export function automaticScore(run: TestCaseRun): 0 | 1 | null {
  if (run.status === 'skipped' || run.status === 'aborted') return null
  return run.status === 'passed' ? 1 : 0
}

/** The task's review when a person's score contradicts the automatic outcome; a score given to a skipped task fills a gap instead. */
export function disagreement(run: TestCaseRun, id: string): Disagreement | null {
  const automatic = automaticScore(run)
  if (!isReviewed(run) || automatic === null) return null
  if ((run.human_score === 1) === (automatic === 1)) return null
  return { id, ai_score: automatic, human_score: run.human_score, human_comment: run.human_comment }
}
