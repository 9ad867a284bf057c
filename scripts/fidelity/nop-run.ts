import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readRunFolder } from '../../src/runs/folder.ts'
import { CHILD_RUN_ENV, runBenchmarkChild } from '../../src/runs/vitest-child.ts'
import type { SuiteFolder } from './inventory.ts'

/** How a runnable case did under nop: a right harness fails it, with every check run. */
export interface NopOutcome {
  status: string
  /** The record's error kind (check_failed under nop, when the checks ran). */
  error: string | null
  checks: number
  /** Checks that ran (a judged check without a grader model does not). */
  ran: number
}

const TASK_FILES = { real: 'tasks/real/real.task.ts', osuniverse: 'tasks/osuniverse/osuniverse.task.ts' } as const
const FOLDER_VARIABLE = { real: 'AGENTEST_REAL_TASKS', osuniverse: 'AGENTEST_OSUNIVERSE_CASES' } as const

/**
 * Runs a suite folder's runnable cases under the nop agent, as a user would (`vitest run` on the
 * suite's task file with the folder named), and reads each record: its status and how many of
 * its checks ran. A grader model in the environment (AGENTEST_GRADER_MODEL...) runs the judged ones.
 */
export async function runUnderNop(root: string, folder: SuiteFolder): Promise<Map<string, NopOutcome>> {
  const results = mkdtempSync(join(tmpdir(), 'agentest-fidelity-'))
  const run = await runBenchmarkChild(root, [TASK_FILES[folder.kind]], {
    ...CHILD_RUN_ENV,
    AGENTEST_AGENT: 'nop',
    [FOLDER_VARIABLE[folder.kind]]: folder.dir,
    AGENTEST_RESULTS_DIR: results,
    AGENTEST_STEP_SCREENSHOTS: 'false',
    AGENTEST_RUN_NAME: 'fidelity',
  })
  const [runDir] = readdirSync(results).filter((name) => name.startsWith('fidelity'))
  if (!runDir) throw new Error(`the nop run of ${folder.suite} wrote no run folder (exit ${run.code}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`)
  const outcomes = new Map<string, NopOutcome>()
  for (const { run: record } of readRunFolder(join(results, runDir), () => {}).records) {
    const ran = record.check_results.filter((check) => check.score !== -1).length
    outcomes.set(record.id, { status: record.status, error: record.error?.kind ?? null, checks: record.check_results.length, ran })
  }
  return outcomes
}
