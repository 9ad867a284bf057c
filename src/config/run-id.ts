/** `<name>-2026-11-22T07-05-01` or just the timestamp: sortable, and safe as a folder name. */
export function makeRunId(name: string | null, now = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, '').replaceAll(':', '-')
  return name ? `${name}-${stamp}` : stamp
}
