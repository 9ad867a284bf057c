import type { AgentContext, AgentOutcome } from '../agent.ts'
import type { FinishRequest } from '../../computer-service/actions.ts'

/** The outcome of a served agent's finish call: its answer, and the tokens and model it reported, metered. */
export function servedFinish(done: FinishRequest, context: AgentContext): AgentOutcome {
  if (done.model) context.meter?.setModel(done.model)
  if (done.usage) context.meter?.addTokens(done.usage.input_tokens, done.usage.output_tokens)
  return { answer: done.answer }
}
