import type { ChallengeType, CheckSpec, Difficulty } from '../schema/task.ts'
import type { RealCase } from './load.ts'
import { unreachable, type Unreachable } from './reach.ts'

/** A jmespath eval that runs on agentest's document as on REAL's state. */
export interface StateEval {
  index: number
  query: string
  expected: unknown
  /** The check's name: `evals[1]: <description or query>`. */
  name: string
}

/** An eval that cannot run on agentest's Omnizon, and why. */
export interface UnmappedEval {
  file: string
  index: number
  type: 'jmespath' | 'script'
  /** The query, or the script's name. */
  what: string
  reasons: Unreachable[]
}

/** What a REAL case becomes: an agentest task, or a skip with its reason. */
export type CasePlan = {
  id: string
  /** REAL's id, the key of the folder's solutions. */
  realId: string
  file: string
  title: string
  goal: string
  difficulty: Difficulty | undefined
  challenge_type: ChallengeType | undefined
  state: StateEval[]
  /** llm_boolean rubrics, as judged checks on the final answer. */
  checks: CheckSpec[]
  unmapped: UnmappedEval[]
  /** Why the case does not run (another website, impossible, unmapped evals); null when it runs. */
  skip: string | null
  /** Whether the case is for REAL's Omnizon (the only clone agentest has). */
  omnizon: boolean
}

const SCRIPT = "a v2 script grades REAL's own state with Python; agentest cannot run it on its Omnizon"

export function planCase(real: RealCase): CasePlan {
  const { task, file, id, realId } = real
  const state: StateEval[] = []
  const checks: CheckSpec[] = []
  const unmapped: UnmappedEval[] = []
  task.evals.forEach((spec, index) => {
    if (spec.type === 'llm_boolean') return checks.push({ type: 'returned_result', value: spec.rubric })
    if (spec.type === 'script') return unmapped.push({ file, index, type: 'script', what: spec.script, reasons: [{ path: spec.script, reason: SCRIPT }] })
    const reasons = unreachable(spec.query)
    if (reasons.length) return unmapped.push({ file, index, type: 'jmespath', what: spec.query, reasons })
    state.push({ index, query: spec.query, expected: spec.expected_value, name: `evals[${index}]: ${spec.description ?? spec.query}` })
  })
  const omnizon = task.website.id === 'omnizon'
  return {
    id,
    realId,
    file,
    title: title(task.goal),
    goal: task.goal,
    difficulty: task.difficulty,
    // agentest has no "no-action" type (REAL's tasks where the agent must not act): left untagged.
    challenge_type: task.challengeType === 'no-action' ? undefined : task.challengeType,
    state,
    checks,
    unmapped,
    skip: !omnizon
      ? `website "${task.website.id}": agentest has no clone of it (it runs REAL's omnizon tasks only)`
      : !task.possible
        ? 'marked "possible": false (REAL\'s harness skips these too)'
        : unmapped.length
          ? describeUnmapped(unmapped)
          : null,
    omnizon,
  }
}

/** One line: `unmapped REAL evals in x.json: evals[1] jmespath `q`: path: why; evals[2] script ...`. */
export function describeUnmapped(unmapped: readonly UnmappedEval[]): string {
  const parts = unmapped.map((u) => {
    const why = u.reasons.map((r) => (r.path === u.what ? r.reason : `${r.path}: ${r.reason}`)).join('; ')
    return `evals[${u.index}] ${u.type} \`${u.what}\`: ${why}`
  })
  return `unmapped REAL evals in ${unmapped[0]?.file}: ${parts.join(' | ')}`
}

/** A test title from the goal: its first sentence, cut at 90 characters. */
function title(goal: string): string {
  const first = goal.trim().split(/(?<=[.?!])\s/)[0]!.replace(/\s+/g, ' ')
  return first.length > 90 ? `${first.slice(0, 89)}…` : first
}
