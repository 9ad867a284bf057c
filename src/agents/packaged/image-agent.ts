import { defineHarnessAgent, type AgentContext, type AgentOutcome, type HarnessAccess } from '../agent.ts'
import { StepLimitError } from '../../trajectory/recording-computer.ts'
import type { AgentServerClient } from '../../agent-images/client.ts'
import { finish, runRequest, streamRun } from './stream.ts'
import { runServed } from './served.ts'

/**
 * A packaged agent (agent: { name: image, spec: name:version }). Its server runs either in the
 * task's desktop container, acting there by itself and streaming what it did (own-desktop), or in
 * a container of its own, acting through the task's served Computer (served). Either way it is
 * observed, not believed: every step is recorded with the harness's own screenshot and counted
 * against the budget by the harness, and a step past the budget cancels its run.
 */
export const imageAgent = defineHarnessAgent({
  name: 'image',
  async run(context: AgentContext, access: HarnessAccess): Promise<AgentOutcome> {
    const server = access.agentServer
    if (!server) throw new Error('the image agent needs its server: a desktop task\'s container, or a container of its own for a served agent')
    return server.acts === 'served' ? runServed(context, server) : runOwnDesktop(context, server, access)
  },
})

/** An agent in the task's desktop container: each step it reports is recorded as the harness saw it. */
async function runOwnDesktop(context: AgentContext, server: AgentServerClient, { report }: HarnessAccess): Promise<AgentOutcome> {
  const request = await runRequest(context, server, { display: { name: ':99', ...context.computer.dimensions } })
  const final = await streamRun(context, server, request, {
    async onStep(event) {
      if (event.thought) context.think(event.thought)
      // The agent's own picture (event.screenshot) is not evidence: the harness takes one.
      await report({ action: event.action, error: event.error ?? null }).catch((error: unknown) => {
        // Stopped while this step was recorded: the stream is read on, as above.
        if (context.signal.aborted) return
        if (!(error instanceof StepLimitError)) throw error
        throw new StepLimitError(`the agent reported a step past max_steps (${context.task.max_steps}); its run was cancelled`)
      })
    },
  })
  return finish(final, context)
}
