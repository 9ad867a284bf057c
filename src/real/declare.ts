import { agentTest } from '../task/agent-test.ts'
import { declareSkippedTask } from '../task/skipped-task.ts'
import type { TaskSpecInput } from '../task/spec.ts'
import type { CasePlan } from './plan.ts'
import type { RealSolution } from './solutions.ts'
import { expectRealState } from './state-checks.ts'

/** REAL's harness gives an agent 25 steps by default. */
export const REAL_MAX_STEPS = 25

/**
 * Declares one task per REAL case, in the calling task file: the Omnizon cases whose evals all
 * map run, their jmespath evals checked in the body and their rubrics judged after it; the
 * others are declared skipped with the reason, on record, without a sandbox.
 */
export function declareRealCases(plans: readonly CasePlan[], taskFile: string, solutions: Record<string, RealSolution | undefined> = {}): void {
  for (const plan of plans) {
    const options: TaskSpecInput = {
      id: plan.id,
      // Another website's case is not an Omnizon task: it names no app.
      ...(plan.omnizon ? { app: 'omnizon' } : {}),
      goal: plan.goal,
      difficulty: plan.difficulty,
      challenge_type: plan.challenge_type,
      max_steps: REAL_MAX_STEPS,
      // REAL's llm_boolean rubrics, judged on the final answer after the body.
      checks: plan.checks,
      ...solutions[plan.realId],
    }
    if (plan.skip !== null) {
      declareSkippedTask(options, taskFile, plan.title, plan.skip)
      continue
    }
    agentTest(options)(plan.title, async ({ run, app, expect }) => {
      await run()
      expectRealState(expect, (await app.finish()).finish, plan.state)
    })
  }
}

/** A skipped case's test: its record says why (error.kind "skipped"), as a task without a sandbox's does. */
