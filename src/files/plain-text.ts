import { stripVTControlCharacters } from 'node:util'

/** A colour sequence as a quoted value spells it (`\u001b[2m`): chai quotes error messages that way. */
const QUOTED_ESCAPE = /\\(?:u001[bB]|x1[bB]|e)\[[0-9;]*[A-Za-z]/g

/**
 * Text bound for a record, without terminal escape codes: Playwright and Vitest colour their
 * messages when the console is a terminal, and a JSON record or the report must not carry that.
 */
export function plainText(text: string): string {
  return stripVTControlCharacters(text).replace(QUOTED_ESCAPE, '')
}
