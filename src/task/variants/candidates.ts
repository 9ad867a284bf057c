import { catalog } from '../../../fixtures/apps/omnizon/catalog.ts'
import { numbersIn } from '../../checks/answer.ts'
import type { SolutionContext } from '../spec.ts'

/**
 * Everything a hedging agent could list beside the right answer. In the shop: every product of
 * the catalog with its price, rating and specs (what the screens show). On a desktop: every
 * file of the agent's home with its size. In both: numbers next to each number of the answer.
 */
export async function hedgeCandidates(context: SolutionContext, kind: 'browser' | 'desktop', answer: string): Promise<string[]> {
  const lines = kind === 'browser' ? catalogLines() : await fileLines(context)
  return [...lines, ...neighbours(answer)]
}

function catalogLines(): string[] {
  return catalog.map((product) => {
    const specs = product.specs.map((spec) => `${spec.name}: ${spec.value}`).join('; ')
    return `- ${product.title} (${product.brand}, ${product.category_name}): $${product.price.toFixed(2)}, rated ${product.rating} by ${product.review_count}. ${specs}`
  })
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
