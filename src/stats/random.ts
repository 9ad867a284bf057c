/**
 * A small seeded PRNG (mulberry32) returning floats in [0,1): bootstraps are reproducible. The seed
 * is taken as a 32-bit unsigned integer (`seed >>> 0`). Good enough for resampling, not for secrets.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An integer in 0..n-1 drawn with `random`. */
export function randomIndex(random: () => number, n: number): number {
  return Math.floor(random() * n)
}
