/**
 * REAL's task JSON run on agentest's Omnizon: one task per case of the folder AGENTEST_REAL_TASKS
 * names (default fixtures/real-tasks), its evals as the checks. A case whose evals do not all map,
 * or that a right run on agentest cannot pass, is skipped with the reason (docs/real-tasks.md).
 * Solutions come from the folder's solutions.ts, or AGENTEST_REAL_SOLUTIONS for a folder that
 * must stay as it is (REAL's own: fixtures/real-tasks/upstream-v1-solutions.ts).
 */
import { loadRealTasks, loadSolutions, planCase } from '../../fixtures/apps/omnizon/real/index.ts'
import { declareRealCases } from '../../fixtures/apps/omnizon/real/declare.ts'

const folder = process.env.AGENTEST_REAL_TASKS || 'fixtures/real-tasks'
const cases = loadRealTasks(folder)
const plans = cases.map(planCase)
// Each skipped case's record says why; said here too, so the run's console shows it.
const skipped = plans.filter((plan) => plan.skip !== null)
if (skipped.length) console.warn(skipped.map((plan) => `REAL: ${plan.id} is skipped: ${plan.skip}`).join('\n'))

const solutions = await loadSolutions(
  folder,
  cases.map((real) => real.realId),
  { file: process.env.AGENTEST_REAL_SOLUTIONS || undefined, goals: Object.fromEntries(cases.map((real) => [real.realId, real.task.goal])) },
)
declareRealCases(plans, import.meta.filename, solutions)
