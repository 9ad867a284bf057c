import { findRecorded, replayPolicy, type ModelCall, type ReplyInput } from '../../../fixtures/model-server/index.ts'
import type { TestCaseRun } from '../../../src/schema/run.ts'

/** The answer the scripted model gives at once to a task it has no recording of: a wrong one. */
export const GIVE_UP = 'I could not do it.'

/**
 * The scripted model (a test double) for the example command agents: the oracle's recorded
 * actions, one tool call a turn, as for openai-chat; the final answer as a call of the served
 * `finish` tool (openai-chat's is `answer`). A goal with no recording gets a nop: `finish` at
 * once with a wrong answer.
 */
export function commandAgentPolicy(oracle: readonly TestCaseRun[]): (call: ModelCall) => ReplyInput {
  const replay = replayPolicy(oracle)
  return (call) => {
    if (!findRecorded(oracle, call.goal)) return { thought: 'Nothing to do here.', calls: [{ name: 'finish', arguments: { answer: GIVE_UP } }] }
    const turn = replay(call)
    if (!('answer' in turn) || turn.answer === undefined) return turn
    const { answer, ...rest } = turn
    return { ...rest, calls: [{ name: 'finish', arguments: { answer } }] }
  }
}
