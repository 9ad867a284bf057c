/**
 * The model-bound ideal of a run: how long it would take if waiting on the model were the only
 * cost. No schedule beats the longest task's model time, nor the total model time spread evenly
 * over the tasks in flight at once; the ideal is the larger of the two bounds.
 */
export function modelBoundIdeal(taskModelSeconds: readonly number[], concurrency: number): number {
  if (taskModelSeconds.length === 0) return 0
  if (!(concurrency >= 1)) throw new Error(`concurrency must be at least 1, not ${concurrency}`)
  const longest = Math.max(...taskModelSeconds)
  const total = taskModelSeconds.reduce((sum, s) => sum + s, 0)
  return Math.max(longest, total / concurrency)
}

/** A recorded task's model time when replayed: one call per recorded action plus the answer, each `delayMs`. */
export function recordedModelSeconds(run: { trajectory: ReadonlyArray<{ action: { type: string } }> }, delayMs: number): number {
  const calls = run.trajectory.filter((step) => step.action.type !== 'message').length + 1
  return (calls * delayMs) / 1000
}
