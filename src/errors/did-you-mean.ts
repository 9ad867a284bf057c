/** Edit distance (insertions, deletions, substitutions), for suggesting a near name. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * The known name closest to `name` when it is close enough to be a slip (a third of its length,
 * at least two edits), else null: `max_step` -> `max_steps`, `goals` -> `goal`.
 */
export function didYouMean(name: string, known: readonly string[]): string | null {
  const limit = Math.max(2, Math.floor(name.length / 3))
  let best: { name: string; distance: number } | null = null
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase())
    if (d <= limit && (!best || d < best.distance)) best = { name: candidate, distance: d }
  }
  return best?.name ?? null
}
