import type { AgentContext, AgentOutcome } from '../agent.ts'
import { CANCEL_WAIT_MS, ProtocolError, type AgentServerClient } from '../../agent-images/client.ts'
import type { FinalEvent } from '../../agent-images/protocol.ts'
import { serveComputer } from '../../computer-service/server.ts'
import { redactError } from '../../secrets/redact.ts'
import { finish, runRequest, streamRun } from './stream.ts'
import { servedFinish } from '../shared/served-finish.ts'
import type { FinishRequest } from '../../computer-service/actions.ts'

/**
 * A packaged agent in a container of its own that acts only through the task's served Computer
 * (MCP and the JSON API, reached through the relay on its network's gateway). Every action is a
 * step of the agent's recorded Computer; its stream carries no steps, only the final event. The
 * answer is the one it gave the finish tool, else its final event's. The run ends at its final
 * event, or CANCEL_WAIT_MS after it called finish; past the step budget (or on a blocked URL, a
 * dead sandbox) the served Computer refuses it and the run is cancelled with that error.
 */
export async function runServed(context: AgentContext, server: AgentServerClient): Promise<AgentOutcome> {
  const served = await serveComputer(context)
  try {
    const [mcp, api] = await Promise.all([server.containerUrl(served.mcpUrl), server.containerUrl(served.apiUrl)])
    const { width, height } = context.computer.dimensions
    const request = await runRequest(context, server, {
      display: null,
      computer: { mcp_url: mcp, api_url: api, token: served.token, environment: context.computer.environment, width, height },
    })
    let finished: FinishRequest | null = null
    const interrupt = served.outcome.then(async (done): Promise<FinalEvent> => {
      finished = done
      // Finished: its stream may end by itself, briefly; then the run is over regardless.
      await new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS).unref())
      return { type: 'final', status: 'done', answer: done.answer }
    })
    const final = await streamRun(context, server, request, {
      onStep: async () => {
        throw new ProtocolError('a step event from an agent that acts through the served Computer: its actions are the steps (act through MCP or the JSON API; send only the final event)')
      },
      interrupt,
    })
    // Its finish call is its answer, whatever its stream said after it; its usage is the final event's, else the finish call's.
    const called = finished as FinishRequest | null
    if (!called) return finish(final, context)
    return final.usage ? { ...finish({ ...final, status: 'done' }, context), answer: called.answer } : servedFinish(called, context)
  } catch (error) {
    served.fail(error)
    // A message quoting the container's log lines may echo the task's token.
    throw redactError(error, [served.token])
  } finally {
    await served.close()
  }
}
