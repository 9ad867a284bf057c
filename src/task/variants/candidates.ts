import { appKit } from '../../sandbox/browser/app-kit.ts'
import { numbersIn } from '../../checks/answer.ts'
import type { SolutionContext } from '../spec.ts'

/**
 * Everything a hedging agent could list beside the right answer. On a web app: what its kit says
 * its screens show (Omnizon: every product with its price, rating and specs). On a desktop: every
 * file of the agent's home with its size. In both: numbers next to each number of the answer.
 */
export async function hedgeCandidates(context: SolutionContext, kind: 'browser' | 'desktop', answer: string): Promise<string[]> {
  const lines = kind === 'browser' ? (appKit(context.app.name).candidates?.() ?? []) : await fileLines(context)
  return [...lines, ...neighbours(answer)]
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
