import type { CheckResult } from '../../schema/run.ts'
import type { CheckSpec } from '../../schema/task.ts'
import type { Judgement } from '../grader/vote.ts'

/** The reason a judged check has no verdict when no grader is configured. */
export const NEEDS_GRADER = 'needs a grader model'

const KIND: Record<CheckSpec['type'], string> = {
  returned_result: 'answer',
  final_screenshot: 'final screen',
  expected_flow: 'flow',
  command_output: 'command',
}

/** A judged check's default name: its kind and the start of its expectation. */
export function checkName(spec: CheckSpec): string {
  const value = spec.value.length > 80 ? `${spec.value.slice(0, 79)}…` : spec.value
  return spec.type === 'command_output' ? `${KIND[spec.type]} \`${spec.command}\`: ${value}` : `${KIND[spec.type]}: ${value}`
}

/** Only the CheckSpec's own keys, in a stable order (so specs compare and store alike). */
export function normalizeSpec(spec: CheckSpec): CheckSpec {
  return spec.command === undefined ? { type: spec.type, value: spec.value } : { type: spec.type, value: spec.value, command: spec.command }
}

export function specKey(spec: CheckSpec): string {
  return JSON.stringify([spec.type, spec.value, spec.command ?? null])
}

/** A judgement as the recorded check: score 1/0/-1, the comment (or why it is unscored), tokens and votes. */
export function toCheckResult(name: string, spec: CheckSpec, judgement: Judgement): CheckResult {
  return {
    check: name,
    passed: judgement.score === 1,
    score: judgement.score,
    message: judgement.score === -1 ? `unscored: ${judgement.error}` : judgement.comment,
    input_tokens: judgement.input_tokens,
    output_tokens: judgement.output_tokens,
    judge: { ...normalizeSpec(spec), votes: judgement.votes, error: judgement.error },
  }
}
