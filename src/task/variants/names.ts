import type { ChallengeType } from '../../schema/task.ts'
import type { TaskCandidates } from '../spec.ts'

/**
 * The tricks played with a tool-naming task's declared shortcut: the same shortcut done quietly,
 * so that only evidence the agent cannot forge tells it apart from the tool's own work.
 */
export const SHORTCUT_TRICKS = ['shortcut without history', 'shortcut in a renamed window', 'shortcut with forged app state', 'shortcut left running'] as const
export type ShortcutTrick = (typeof SHORTCUT_TRICKS)[number]

/** The near misses agentest writes for every task they fit; each must fail like a declared one. */
export const GENERATED_NEAR_MISSES = ['hedger', 'echo', 'placed then cancelled', 'duplicate', ...SHORTCUT_TRICKS] as const
export type GeneratedNearMiss = (typeof GENERATED_NEAR_MISSES)[number]

/** What a generated near miss needs to know about its task. */
export interface AdversaryTask {
  goal: string
  kind: 'browser' | 'desktop'
  challenge_type: ChallengeType | null
  /** Where the browser starts (to repeat the reference from the beginning). */
  start_path: string
  /** The app the goal names, whose use the checks verify (desktop tasks). */
  tool: string | null
  /** The task's own hedging candidates (`candidates:`), or null. */
  candidates: TaskCandidates | null
  /** Its environment's (`environments.<app>.candidates`), or null. */
  environmentCandidates: readonly string[] | null
}

const ASKS = new Set<ChallengeType | null>(['retrieval', 'retrieval-action'])
const ACTS = new Set<ChallengeType | null>(['action', 'retrieval-action'])

/**
 * The generated near misses that may fit a task, from what it declares: questions get the
 * hedger and the echo, shop tasks that act get "placed then cancelled" and the duplicate. Whether
 * one really fits is known only when it runs (does the reference place an order?); one that does
 * not is skipped with the reason.
 */
export function generatedNearMisses(task: AdversaryTask): GeneratedNearMiss[] {
  const names: GeneratedNearMiss[] = []
  if (ASKS.has(task.challenge_type)) names.push('hedger', 'echo')
  if (task.kind === 'browser' && ACTS.has(task.challenge_type)) names.push('placed then cancelled', 'duplicate')
  if (task.tool) names.push(...SHORTCUT_TRICKS)
  return names
}
