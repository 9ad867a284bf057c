import type { EnvironmentSpec } from '../../schema/environment.ts'
import type { Solution, TaskSpec } from '../spec.ts'
import { GENERATED_NEAR_MISSES, SHORTCUT_TRICKS, generatedNearMisses, type AdversaryTask, type GeneratedNearMiss, type ShortcutTrick } from './names.ts'

/** The agents that run a task's variants instead of the task once: near misses must fail, alternatives pass. */
export const VARIANT_AGENTS = { 'near-miss': 'near miss', alternative: 'alternative' } as const
export type VariantKind = (typeof VARIANT_AGENTS)[keyof typeof VARIANT_AGENTS]

export function variantKindOf(agentName: string | undefined): VariantKind | null {
  return agentName && agentName in VARIANT_AGENTS ? VARIANT_AGENTS[agentName as keyof typeof VARIANT_AGENTS] : null
}

/** What a generated near miss knows of its task; `environment` is the declaration of the task's app, if any. */
function adversaryTask(spec: TaskSpec, environment?: Pick<EnvironmentSpec, 'candidates'>): AdversaryTask {
  return {
    goal: spec.goal,
    kind: spec.app ? 'browser' : 'desktop',
    challenge_type: spec.challenge_type ?? null,
    start_path: spec.start_path,
    tool: spec.tool ?? null,
    candidates: spec.candidates ?? null,
    environmentCandidates: environment?.candidates ?? null,
  }
}

/** The variants a task runs under a variant agent: declared near misses then generated ones, or its alternatives. */
export function variantNames(spec: TaskSpec, kind: VariantKind): string[] {
  if (kind === 'alternative') return Object.keys(spec.alternatives)
  return [...Object.keys(spec.near_misses), ...generatedNearMisses(adversaryTask(spec))]
}

export function isShortcutTrick(name: string): name is ShortcutTrick {
  return (SHORTCUT_TRICKS as readonly string[]).includes(name)
}

export function isGenerated(name: string): name is GeneratedNearMiss {
  return (GENERATED_NEAR_MISSES as readonly string[]).includes(name)
}

/**
 * The solution a variant runs, or null if the task has none by that name (or no reference to
 * build it from). `environment` is the declaration of the task's app (its hedging candidates).
 */
export function variantSolution(spec: TaskSpec, kind: VariantKind, name: string, environment?: Pick<EnvironmentSpec, 'candidates'>): Solution | null {
  if (kind === 'alternative') return spec.alternatives[name] ?? null
  const declared = spec.near_misses[name]
  if (declared) return declared
  // A trick is played with the task's own shortcut (a task that names a tool must declare one).
  const reference = isShortcutTrick(name) ? spec.near_misses.shortcut : spec.solution
  if (!isGenerated(name) || !reference) return null
  // Loaded on first use: only the gate's near-miss runs need it.
  return async (context) => (await import('./adversaries.ts')).adversary(name, adversaryTask(spec, environment), reference)(context)
}
