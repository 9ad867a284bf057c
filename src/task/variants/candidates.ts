import { appKit } from '../../sandbox/browser/app-kit.ts'
import { numbersIn } from '../../checks/answer.ts'
import type { SolutionContext } from '../spec.ts'
import type { AdversaryTask } from './names.ts'
import { NotApplicable } from './not-applicable.ts'

/** Where a hedger's candidates come from, and how to list them once the reference has run. */
export interface CandidateSource {
  /** Whose they are, for a reason that says why there are none ("the task's candidates"). */
  what: string
  list(): Promise<readonly string[]>
  /** None listed is still a hedge (a desktop's empty home: the numbers next to the answer's remain). */
  emptyIsFine?: boolean
}

/**
 * The candidates a hedging agent could list beside the right answer, from the task's own world:
 * the task's `candidates:` if it declares any; else on a web app its environment's
 * (`environments.<app>.candidates`, then its kit's); on a desktop every file of the agent's
 * home with its size. Chosen before the reference runs, so a task with none is not applicable
 * at once: another app's catalog would say nothing about this task's checks.
 */
export function candidateSource(context: SolutionContext, task: AdversaryTask): CandidateSource {
  const own = task.candidates
  if (own) return { what: "the task's candidates", list: async () => (typeof own === 'function' ? await own(context) : own) }
  if (task.kind === 'desktop') return { what: "the agent's files", list: () => fileLines(context), emptyIsFine: true }
  const name = context.app.name
  const kit = appKit(name)
  const fromKit = kit.candidates
  const fromEnvironment = task.environmentCandidates
  if (!fromKit && !fromEnvironment) {
    throw new NotApplicable(
      `no candidates to hedge with: neither the task (candidates:) nor the ${kit.title ?? name} app (environments.${name}.candidates, or its kit's candidates) declares any`,
    )
  }
  return {
    what: `the ${kit.title ?? name} app's candidates`,
    list: async () => [...(fromEnvironment ?? []), ...(typeof fromKit === 'function' ? await fromKit(context.app) : (fromKit ?? []))],
  }
}

/** The hedger's answer: the right one, then every candidate and numbers next to each number it states. */
export async function hedgedAnswer(source: CandidateSource, answer: string): Promise<string> {
  const lines = (await source.list()).map((line) => line.trim()).filter(Boolean)
  if (lines.length === 0 && !source.emptyIsFine) throw new NotApplicable(`${source.what} are an empty list`)
  const listed = lines.map((line) => (line.startsWith('- ') ? line : `- ${line}`))
  return `${answer}\n\nIt could also be one of these:\n${[...listed, ...neighbours(answer)].join('\n')}`
}

async function fileLines({ desktop }: SolutionContext): Promise<string[]> {
  const listing = await desktop.shell("find /home/agent -type f -not -path '*/.*' -printf '%P, %s bytes\\n' | sort | head -200", 30_000)
  return listing.stdout.toString().split('\n').filter(Boolean).map((line) => `- ${line}`)
}

/** For each number the answer states: one more, one less, a tenth and ten times it. */
function neighbours(answer: string): string[] {
  const values = [...new Set(numbersIn(answer))]
  return values.flatMap((n) => [n + 1, n - 1, n / 10, n * 10].filter((m) => m >= 0).map((m) => `- or maybe ${+m.toFixed(2)}`))
}
