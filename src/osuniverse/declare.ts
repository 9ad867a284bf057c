import { dirname, relative, sep } from 'node:path'
import { agentTest } from '../task/agent-test.ts'
import { declareSkippedTask } from '../task/skipped-task.ts'
import type { Solution, TaskSpecInput } from '../task/spec.ts'
import type { CheckSpec } from '../schema/task.ts'
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
 * mapped to agentest's OSUniverse desktop, by path from the task file), its checks as judged
 * checks, its level (so max_steps and the score weight are the level's) and its category; a
 * network when it needs the internet and the user allowed it. `None` is no setup.
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
    ...(loaded.network ? { network: true } : {}),
    checks: c.checks.map((check): CheckSpec => (check.type === 'command_output' ? { type: check.type, value: check.value, command: check.command } : { type: check.type, value: check.value })),
    ...(solutions ?? {}),
  }
}

/** A Dockerfile folder is named relative to the task file, as agentTest() reads it. */
function imageFor(loaded: LoadedCase, taskFile: string): string {
  const image = loaded.image.kind === 'mapped' ? loaded.image.dir : loaded.image.image
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
      declareSkippedTask(options, taskFile, options.name ?? options.id, loaded.skip)
      continue
    }
    // The case's checks are judged after the body, as OSUniverse judges them after the run.
    agentTest(options)(loaded.case.name, async ({ run }) => {
      await run()
    })
  }
}
