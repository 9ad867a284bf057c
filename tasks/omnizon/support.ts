/**
 * Helpers shared by the Omnizon tasks (this is not a task file: only *.task.ts files are tasks).
 * Checks read the answer and the shop's state; solutions read the page, then act through `shop`.
 * Keep these exports stable: other task files import them.
 */
import { normalizeText, numbersIn, wordPattern, type SolutionContext } from 'agentest'
import { catalog, tokenize } from '../../fixtures/apps/omnizon/catalog.ts'

/** Every product id of the catalog, for goals that allow any product. */
export const EVERY_PRODUCT: readonly string[] = catalog.map((product) => product.id)

/**
 * Whether one of the shop's recorded searches is `query` as the shop reads it: case, spacing,
 * punctuation and plurals are folded (" Laptops " is "laptop"), so it shows the same results.
 * Other words ("laptop computer", "notebook") are another search.
 */
export function searchedFor(searches: readonly string[], query: string): boolean {
  const wanted = tokenize(query).join(' ')
  return searches.some((typed) => tokenize(typed).join(' ') === wanted)
}

/**
 * `answer` without the given phrases (compared case- and space-insensitively), so that repeating
 * the goal's own words, e.g. the product name it quotes, does not state a fact.
 */
export function apart(answer: string | null, ...phrases: string[]): string {
  let text = normalizeText(answer ?? '')
  for (const phrase of phrases) text = text.replace(wordPattern(phrase, 'g'), ' ')
  return text
}

/** An entry of a list question: a name (matched whole-word, case-insensitive) and its value. */
export interface Listed {
  name: string
  value: number
}

/**
 * The entries whose value is not stated beside their name: after the name and before the next
 * listed name ("Sony WH-1000XM5: $348"), or, if the answer writes values first throughout,
 * before it ("$348 Sony WH-1000XM5"). An answer that gives every value but to the wrong names
 * lists them here. Names missing from the answer are listed too.
 */
export function unpaired(answer: string | null, entries: readonly Listed[]): string[] {
  const text = normalizeText(answer ?? '')
  const hits = entries.map((entry) => [...text.matchAll(wordPattern(entry.name, 'g'))].map((m) => ({ start: m.index, end: m.index + m[0].length })))
  const bounds = hits.flat().sort((a, b) => a.start - b.start)
  const stated = (segment: string, value: number) => numbersIn(segment).some((n) => Math.abs(n - value) < 1e-9)
  const missing = (side: 'after' | 'before') =>
    entries
      .filter((entry, i) => {
        return !hits[i]!.some(({ start, end }) => {
          if (side === 'after') {
            const next = bounds.find((b) => b.start >= end)
            return stated(text.slice(end, next?.start ?? text.length), entry.value)
          }
          const previous = bounds.filter((b) => b.end <= start).at(-1)
          return stated(text.slice(previous?.end ?? 0, start), entry.value)
        })
      })
      .map((entry) => entry.name)
  const after = missing('after')
  const before = missing('before')
  return before.length < after.length ? before : after
}

/** A results page's product cards, as shown: id, title and price. */
export async function resultCards({ ui }: Pick<SolutionContext, 'ui'>): Promise<Array<{ id: string; title: string; price: string }>> {
  const cards = []
  for (const card of await ui.locator('[data-testid="product-card"]').all()) {
    cards.push({
      id: (await card.getAttribute('data-product-id')) ?? '',
      title: (await card.locator('[data-testid="product-link"]').innerText()).trim(),
      price: (await card.locator('[data-testid="price"]').getAttribute('data-price')) ?? '',
    })
  }
  return cards
}
