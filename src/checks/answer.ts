import type { ExpectStatic } from 'vitest'

/** Something an answer can name: words (matched whole, case-insensitive), a number (by value), or a pattern. */
export type Mention = string | number | RegExp

export interface AnswerRule {
  /** What the right answer names; with a list, it must name every entry. */
  names: Mention | readonly Mention[]
  /**
   * The other candidates the question has: naming any one fails, so an answer that hedges
   * (lists every candidate with its value) cannot pass. Numbers that legitimately appear in a
   * right answer (the operands of a sum, a model number in a title) must not be listed here.
   */
  notNaming: readonly Mention[]
  /** How the check reads in the record, e.g. "the first laptop result". */
  what: string
}

/**
 * A question's check, stated once: the answer names the right thing and no other candidate.
 * Two recorded checks; the first lists what is missing, the second what was wrongly named.
 */
export function expectAnswer(expect: ExpectStatic, answer: string | null, rule: AnswerRule): void {
  const wanted = (Array.isArray(rule.names) ? rule.names : [rule.names]) as readonly Mention[]
  expect(answer, `names ${rule.what}`).toNameEvery(wanted)
  expect(answer, 'names no other candidate').toNameNone(rule.notNaming)
}

/** Whether `text` names `mention`: words at word boundaries, numbers by value, patterns as given. */
export function mentions(text: string, mention: Mention): boolean {
  if (mention instanceof RegExp) return mention.test(text)
  if (typeof mention === 'number') return numbersIn(text).some((n) => Math.abs(n - mention) < 1e-9)
  return wordPattern(mention).test(normalizeText(text))
}

/** Every number written in `text`: "1,119.99", "$48", "13-inch" and "12.5in" count; "v2" does not. */
export function numbersIn(text: string): number[] {
  const tokens = normalizeText(text).match(/(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\w.,])\d+(?:\.\d+)?(?![\d])/g) ?? []
  return tokens.map((token) => Number(token.replaceAll(',', '')))
}

/** Lowercase, one kind of quote, dash and space, so typography does not decide a check. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[″“”]/g, '"')
    .replace(/[’‘′]/g, "'")
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
}

/** `words` as a whole-word pattern over normalized text (any run of spaces between them). */
export function wordPattern(words: string, flags = ''): RegExp {
  const needle = normalizeText(words).trim().split(' ').map(escape).join('\\s+')
  return new RegExp(`(?<![a-z0-9])${needle}(?![a-z0-9])`, flags)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A mention as a failure names it: words and numbers as written, a pattern as /…/. */
export function showMention(mention: Mention): string {
  return String(mention)
}
