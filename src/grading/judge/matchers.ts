import { expect, type MatcherState } from 'vitest'
import { CheckSpec } from '../../schema/task.ts'
import { Judge } from './judge.ts'

/**
 * Judged matchers, one per OSUniverse check type, plus one for any CheckSpec. They are async:
 * `await expect(judge).toPassRubric('...')`. An unscored check passes the matcher (it must not
 * fail the task); the harness then ends the task as skipped, never as passed.
 */
expect.extend({
  toPassRubric(received: unknown, rubric: string) {
    return judged(this, received, { type: 'returned_result', value: rubric })
  },
  toHaveFinalScreen(received: unknown, description: string) {
    return judged(this, received, { type: 'final_screenshot', value: description })
  },
  toFollowFlow(received: unknown, expectedFlow: string) {
    return judged(this, received, { type: 'expected_flow', value: expectedFlow })
  },
  toHaveCommandOutput(received: unknown, command: string, expectation: string) {
    return judged(this, received, { type: 'command_output', command, value: expectation })
  },
  toPassCheck(received: unknown, check: CheckSpec) {
    return judged(this, received, CheckSpec.parse(check))
  },
})

async function judged(state: MatcherState, received: unknown, spec: CheckSpec) {
  if (!(received instanceof Judge)) throw new TypeError("judged matchers take the task's judge: await expect(judge).toPassRubric('...')")
  if (state.isNot) throw new TypeError('a judged check cannot be negated; write the expectation the other way round')
  const result = await received.check(spec)
  return { pass: result.score !== 0, message: () => result.message ?? result.check }
}

declare module 'vitest' {
  interface Matchers<T = any> {
    /** Judged: the agent's final answer meets the rubric (OSUniverse's returned_result). */
    toPassRubric: (rubric: string) => Promise<T>
    /** Judged: the final screenshot shows what the description says (final_screenshot). */
    toHaveFinalScreen: (description: string) => Promise<T>
    /** Judged: the trajectory, actions and screenshots, follows the expected flow (expected_flow). */
    toFollowFlow: (expectedFlow: string) => Promise<T>
    /** Judged: the command's output in the task's container meets the expectation (command_output). */
    toHaveCommandOutput: (command: string, expectation: string) => Promise<T>
    /** Judged: any declared check ({type, value, command?}). */
    toPassCheck: (check: CheckSpec) => Promise<T>
  }
}
