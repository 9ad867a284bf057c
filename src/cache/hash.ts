import { createHash } from 'node:crypto'

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** How long the content hashes in a cache key are: enough to tell versions apart, short enough to read. */
export const SHORT = 12

/** One hash over several, order-free: sorted first, so the order files were found in does not count. */
export function combine(hashes: Iterable<string>): string {
  return sha256([...hashes].sort().join('\n'))
}
