import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import type { TestCaseRun } from '../schema/run.ts'

export const NO_GRADER = 'none'

/**
 * The grader of a run, for the leaderboard's rows. First the models that voted in its records'
 * judged checks: a re-grade (`npm run regrade`) rewrites the votes but not config.yaml, so the
 * votes say who graded what is counted. A run whose tasks have no judged check has no votes;
 * then the grader its config.yaml names (written at the run's start, secrets redacted), else none.
 */
export function graderOf(runDir: string, records: readonly TestCaseRun[]): string {
  const voters = new Set(records.flatMap((r) => r.check_results.flatMap((c) => c.judge?.votes.map((v) => v.model) ?? [])))
  const models = voters.size > 0 ? [...voters] : configuredGrader(runDir)
  return models.length > 0 ? models.sort().join(' + ') : NO_GRADER
}

const Model = z.union([z.string(), z.object({ model: z.string() }).transform((m) => m.model)])
const RunConfigFile = z.object({
  config: z.object({ grader: z.object({ model: z.union([Model.transform((m) => [m]), z.array(Model), z.null()]) }) }),
})

/** grader.model of the run's config.yaml as a list; empty when there is none or the file says nothing readable. */
function configuredGrader(runDir: string): string[] {
  const file = join(runDir, 'config.yaml')
  if (!existsSync(file)) return []
  try {
    const parsed = RunConfigFile.safeParse(parseYaml(readFileSync(file, 'utf8')))
    return parsed.success ? (parsed.data.config.grader.model ?? []) : []
  } catch {
    return []
  }
}
