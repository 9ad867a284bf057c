/**
 * One row of `npm run perf`: a piece of work done by agentest and by its bare counterpart (plain
 * Playwright or plain dockerode), alternating over several rounds in one invocation. Times are
 * medians of the rounds; a comparison fails only on correctness (a different end state, a task
 * that did not pass), never on a time.
 */
import { z } from 'zod'

export const Timing = z.object({
  /** The median over the rounds, in seconds. */
  median_s: z.number(),
  /** Every round's time, in seconds, in the order they ran. */
  rounds_s: z.array(z.number()),
})
export type Timing = z.infer<typeof Timing>

export const Comparison = z.object({
  /** P1..P5, then letters for sub-rows (P2a, P2b). */
  id: z.string(),
  /** What was done, in a short phrase: "30 Omnizon oracle trajectories, one at a time". */
  work: z.string(),
  /** The unit the numbers are in: "s" for seconds, "MB" for memory. */
  unit: z.enum(['s', 'MB']).default('s'),
  harness: Timing,
  /** The bare counterpart, or the model-bound ideal when that is what the goal compares with. */
  bare: Timing,
  /** What `bare` is: "bare Playwright replay", "model-bound ideal". */
  bare_label: z.string(),
  /** harness.median / bare.median (for MB rows: the harness's figure over the goal's bound). */
  ratio: z.number(),
  /** The goal as the issue states it, e.g. "≤ 1.0x". */
  goal: z.string(),
  met: z.boolean(),
  /** Correctness: empty when every run reached the same verified end state. */
  problems: z.array(z.string()),
  /** Anything a reader needs: concurrency, what was sampled, why a goal is not met. */
  notes: z.array(z.string()).default([]),
})
export type Comparison = z.infer<typeof Comparison>

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function timing(rounds_s: number[]): Timing {
  return { median_s: median(rounds_s), rounds_s }
}

/** What every comparison module exports as `compare`. */
export interface CompareOptions {
  /** How many alternating rounds (harness, bare, harness, bare, ...). */
  rounds: number
  /** Progress lines for stderr. */
  log: (line: string) => void
}
/** A module's own options extend CompareOptions with optional fields (a task subset, say). */
export type Compare<Options extends CompareOptions = CompareOptions> = (options: Options) => Promise<Comparison[]>
