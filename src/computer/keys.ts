import { canonicalKey } from './key-names.ts'

/** Maps a CUA key name to a Playwright key: the canonical names are Playwright's own. */
export function toPlaywrightKey(key: string): string {
  return canonicalKey(key)
}
