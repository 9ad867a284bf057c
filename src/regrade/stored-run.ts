import type { StoredRun } from '../runs/record.ts'
import type { CheckSpec } from '../schema/task.ts'
import type { CheckResult } from '../schema/run.ts'
import { storedEvidence } from '../grading/evidence/evidence.ts'
import type { Grader } from '../grading/grader/grader.ts'
import { aiGrading, type AiGrading } from '../grading/judge/ai-score.ts'
import { checkName, specKey, toCheckResult } from '../grading/judge/check-result.ts'

// Reading stored records lives with the other run-folder helpers; re-exported for the grading code.
export { readStoredRun, storedRunFiles, type StoredRun } from '../runs/record.ts'

export interface Graded {
  grading: AiGrading
  results: CheckResult[]
}

/**
 * Judges a stored run's checks again from its recorded evidence (answer, screenshots,
 * trajectory, command outputs), naming each check as the run did. Nothing is re-run.
 */
export async function gradeStoredRun(stored: StoredRun, grader: Grader, checks: readonly CheckSpec[] = stored.run.checks): Promise<Graded> {
  const evidence = storedEvidence(stored.run, stored.dir)
  const names = new Map(stored.run.check_results.flatMap((c) => (c.judge ? [[specKey(c.judge), c.check] as const] : [])))
  const results: CheckResult[] = []
  for (const spec of checks) {
    const judgement = await grader.judge(spec, evidence)
    results.push(toCheckResult(names.get(specKey(spec)) ?? checkName(spec), spec, judgement))
  }
  return { grading: aiGrading(results), results }
}

/** The stored JSON with its grading fields replaced and every other key, value and order kept. */
export function withGrading(raw: Record<string, unknown>, grading: AiGrading): Record<string, unknown> {
  return { ...raw, ...grading }
}

/** Runs `work` over the items, at most `limit` at a time, keeping their order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await work(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return results
}
