import type { JudgeScore, Vote } from '../../schema/grading.ts'

/** A judged check's outcome: the deciding score and comment, every vote, and the tokens they cost. */
export interface Judgement {
  score: JudgeScore
  comment: string | null
  /** Why there is no verdict; null when there is one. */
  error: string | null
  votes: Vote[]
  input_tokens: number
  output_tokens: number
}

/**
 * Majority vote: a verdict needs more than half of ALL graders to agree, so graders that gave
 * no verdict (errors, unparsable answers) never let a minority decide; anything less leaves
 * the check unscored, with the reason.
 */
export function decide(votes: readonly Vote[]): Judgement {
  const tokens = {
    input_tokens: votes.reduce((sum, v) => sum + v.input_tokens, 0),
    output_tokens: votes.reduce((sum, v) => sum + v.output_tokens, 0),
  }
  const passes = votes.filter((v) => v.score === 1)
  const fails = votes.filter((v) => v.score === 0)
  const needed = Math.floor(votes.length / 2) + 1
  const winners = passes.length >= needed ? passes : fails.length >= needed ? fails : null
  const errors = votes.filter((v) => v.error).map((v) => (votes.length > 1 ? `${v.model}: ${v.error}` : v.error!))
  if (!winners) {
    const error =
      passes.length + fails.length === 0
        ? errors.join('; ') || 'no grader answered'
        : `no majority: ${passes.length} pass, ${fails.length} fail${errors.length ? `, ${errors.length} without a verdict (${errors.join('; ')})` : ''} of ${votes.length} graders`
    return { score: -1, comment: null, error, votes: [...votes], ...tokens }
  }
  const comment = winners[0]!.comment ?? ''
  const tally = votes.length > 1 ? ` (${passes.length} of ${votes.length} graders passed it)` : ''
  return { score: winners === passes ? 1 : 0, comment: `${comment}${tally}`, error: null, votes: [...votes], ...tokens }
}

export function unscored(error: string): Judgement {
  return { score: -1, comment: null, error, votes: [], input_tokens: 0, output_tokens: 0 }
}
