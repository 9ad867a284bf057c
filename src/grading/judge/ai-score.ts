import type { CheckResult, TestCaseRun } from '../../schema/run.ts'
import type { CheckSpec } from '../../schema/task.ts'
import { normalizeSpec, specKey } from './check-result.ts'

export type AiGrading = Pick<TestCaseRun, 'ai_score' | 'ai_comment' | 'validation_input_tokens' | 'validation_output_tokens'>

const MARK: Record<number, string> = { 1: 'pass', 0: 'fail', [-1]: 'unscored' }

/**
 * A task's grading from its judged checks, as OSUniverse's validator sums it up: ai_score is 1
 * if every judged check passed, 0 if any failed, else -1 (none judged, or one unscored);
 * ai_comment lists each check's name, outcome and comment; tokens are summed.
 */
export function aiGrading(checks: readonly CheckResult[]): AiGrading {
  const judged = checks.filter((c) => c.judge)
  const score = judged.length === 0 ? -1 : judged.some((c) => c.score === 0) ? 0 : judged.every((c) => c.score === 1) ? 1 : -1
  return {
    ai_score: score,
    ai_comment: judged.length ? judged.map((c) => `${c.check} [${MARK[c.score] ?? c.score}]: ${(c.score === -1 ? c.judge?.error : c.message) ?? ''}`).join('\n') : null,
    validation_input_tokens: judged.reduce((sum, c) => sum + c.input_tokens, 0),
    validation_output_tokens: judged.reduce((sum, c) => sum + c.output_tokens, 0),
  }
}

/** The task's declared checks plus every judged check that ran, once each: a stored run's `checks`. */
export function withJudgedChecks(declared: readonly CheckSpec[], results: readonly CheckResult[]): CheckSpec[] {
  const out = new Map<string, CheckSpec>()
  for (const spec of [...declared, ...results.flatMap((r) => (r.judge ? [r.judge] : []))]) {
    const key = specKey(spec)
    if (!out.has(key)) out.set(key, normalizeSpec(spec))
  }
  return [...out.values()]
}
