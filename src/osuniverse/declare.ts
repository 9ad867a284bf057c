import { dirname, relative, sep } from 'node:path'
import { inject, test as vitestTest } from 'vitest'
import { agentTest } from '../fixtures/agent-test.ts'
import { blankRecord } from '../fixtures/blank-record.ts'
import { TaskSpec, toTestCase, type Solution, type TaskSpecInput } from '../fixtures/spec.ts'
import { testName } from '../fixtures/test-name.ts'
import type { CheckSpec } from '../schema/task.ts'
import { OFFICE_IMAGE_DIR } from './images.ts'
import type { LoadedCase } from './load.ts'
import type { OsuniverseCase } from './schema.ts'

/** A case's reference solution and its near misses, written beside the cases (OSUniverse has none). */
export interface CaseSolutions {
  solution: Solution
  near_misses: Record<string, Solution>
  alternatives?: Record<string, Solution>
}

/** Solutions by case key (`<category>/<stem>`), each made from the loaded case (its month, say). */
export type SolutionsByCase = Readonly<Record<string, (testCase: OsuniverseCase) => CaseSolutions>>

/**
 * The agentTest() options of a case: its task as the goal, its setup_cmd, its image (OSUniverse's
 * mapped to the office image, by path from the task file), its checks as judged checks, its level
 * (so max_steps and the score weight are the level's) and its category. `None` is no setup.
 */
export function taskOptions(loaded: LoadedCase, taskFile: string, solutions?: CaseSolutions): TaskSpecInput {
  const { case: c } = loaded
  const setup = c.setup_cmd?.trim()
  return {
    id: loaded.id,
    name: c.name,
    category: loaded.category,
    level: c.level,
    goal: c.task,
    desktop_image: imageFor(loaded, taskFile),
    ...(setup && setup !== 'None' ? { setup_cmd: setup } : {}),
    checks: c.checks.map((check): CheckSpec => (check.type === 'command_output' ? { type: check.type, value: check.value, command: check.command } : { type: check.type, value: check.value })),
    ...(solutions ?? {}),
  }
}

/** A Dockerfile folder is named relative to the task file, as agentTest() reads it. */
function imageFor(loaded: LoadedCase, taskFile: string): string {
  const image = loaded.image.kind === 'office' ? OFFICE_IMAGE_DIR : loaded.image.image
  if (!image.startsWith(sep)) return image
  const path = relative(dirname(taskFile), image).split(sep).join('/')
  return path.startsWith('.') ? path : `./${path}`
}

/**
 * Declares one task per case, in the calling task file. A case that cannot run here is declared
 * skipped with its reason, and recorded as skipped (as a task without a sandbox is).
 */
export function declareCases(cases: readonly LoadedCase[], taskFile: string, solutions: SolutionsByCase = {}): void {
  for (const loaded of cases) {
    const options = taskOptions(loaded, taskFile, solutions[loaded.key]?.(loaded.case))
    if (loaded.skip) {
      declareSkipped(options, taskFile, loaded.skip)
      continue
    }
    // The case's checks are judged after the body, as OSUniverse judges them after the run.
    agentTest(options)(loaded.case.name, async ({ run }) => {
      await run()
    })
  }
}

function declareSkipped(options: TaskSpecInput, taskFile: string, reason: string): void {
  const spec = TaskSpec.parse(options)
  const title = spec.name ?? spec.id
  const epochs = inject('agentest:run')?.config.run.epochs ?? 1
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const testCase = toTestCase(spec, taskFile, title, null, epoch)
    const tags = testCase.level ? [testCase.level] : []
    vitestTest(testName(testCase.id, title, null, { n: epoch, of: epochs }), { meta: { agentest: { task: testCase } }, tags }, (context) => {
      // Set when it runs, not when declared: a case filtered out by -t must leave no record.
      const run = inject('agentest:run')
      if (run) {
        const record = blankRecord(run, { agent_status: 'not_run', max_steps: run.config.max_steps ?? testCase.max_steps, error: { kind: 'skipped', message: reason } })
        context.task.meta.agentest = { task: testCase, record }
      }
      context.skip(reason)
    })
  }
}
