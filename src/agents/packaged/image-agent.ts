import { randomBytes } from 'node:crypto'
import { defineHarnessAgent, type AgentContext, type AgentOutcome, type HarnessAccess } from '../agent.ts'
import { StepLimitError, TaskAbortedError, abortReason } from '../../trajectory/recording-computer.ts'
import { CANCEL_WAIT_MS, ProtocolError } from '../../agent-images/client.ts'
import { PROTOCOL_VERSION, type FinalEvent, type RunEvent, type RunRequest } from '../../agent-images/protocol.ts'

/**
 * A packaged agent (agent: { name: image, spec: name:version }): its server runs in the task's
 * container, acts there by itself, and streams what it did. It is observed, not believed: each
 * step it reports is recorded with the harness's own screenshot and counted against the budget
 * by the harness, and a step past the budget cancels its run.
 */
export const imageAgent = defineHarnessAgent({
  name: 'image',
  async run(context: AgentContext, { agentServer: server, report }: HarnessAccess): Promise<AgentOutcome> {
    if (!server) throw new Error('the image agent runs in a desktop task\'s container, and this task has none')
    const request: RunRequest = {
      protocol: PROTOCOL_VERSION,
      run_id: `${context.task.id}-${randomBytes(4).toString('hex')}`.replaceAll(/[^A-Za-z0-9._-]/g, '-'),
      task: { id: context.task.id, instruction: context.task.goal, max_steps: context.task.max_steps },
      model: {
        base_url: context.config.base_url ? await server.modelUrl(context.config.base_url) : null,
        name: context.config.model,
        api_key_env: context.config.api_key_env,
      },
      display: { name: ':99', ...context.computer.dimensions },
      options: context.config.options,
    }
    // On a timeout or Ctrl-C the agent is told to stop at once, and has CANCEL_WAIT_MS to end its
    // stream as cancelled (whether it did is on record: AgentServerClient.cancelOutcome); then the
    // stream is closed, and the container goes after.
    const stream = new AbortController()
    let closing: NodeJS.Timeout | null = null
    const onAbort = () => {
      void server.cancelActive()
      closing = setTimeout(() => stream.abort(), CANCEL_WAIT_MS)
    }
    context.signal.addEventListener('abort', onAbort, { once: true })
    const events = server.run(request, stream.signal)
    try {
      for (;;) {
        let next: IteratorResult<RunEvent>
        try {
          next = await events.next()
        } catch (error) {
          // A stream that broke (rather than one that said something wrong) because the server
          // died says so, with its exit code and last log lines.
          const broke = !(error instanceof ProtocolError) || /^the stream ended/.test(error.message)
          throw context.signal.aborted || !broke ? error : ((await server.down('mid-run')) ?? error)
        }
        if (next.done) break
        const event = next.value
        // Stopped: nothing more is recorded; the stream is read until the agent ends it.
        if (context.signal.aborted) {
          if (event.type === 'final') break
          continue
        }
        if (event.type === 'step') {
          if (event.thought) context.think(event.thought)
          // The agent's own picture (event.screenshot) is not evidence: the harness takes one.
          await report({ action: event.action, error: event.error ?? null }).catch((error: unknown) => {
            // Stopped while this step was recorded: the stream is read on, as above.
            if (context.signal.aborted) return
            if (!(error instanceof StepLimitError)) throw error
            throw new StepLimitError(`the agent reported a step past max_steps (${context.task.max_steps}); its run was cancelled`)
          })
          continue
        }
        return finish(event, context)
      }
      if (context.signal.aborted) throw new TaskAbortedError(abortReason(context.signal))
      throw new ProtocolError('the stream ended without a final event')
    } catch (error) {
      if (context.signal.aborted) throw new TaskAbortedError(abortReason(context.signal))
      // Over budget, a broken message, or any other failure: the agent must stop acting.
      await server.cancelActive()
      throw error
    } finally {
      context.signal.removeEventListener('abort', onAbort)
      if (closing) clearTimeout(closing)
      stream.abort()
      void events.return(undefined).catch(() => undefined)
    }
  },
})

function finish(event: FinalEvent, context: AgentContext): AgentOutcome {
  if (event.model) context.meter?.setModel(event.model)
  if (event.usage) context.meter?.addTokens(event.usage.input_tokens, event.usage.output_tokens)
  switch (event.status) {
    case 'done':
      return { answer: event.answer ?? null, usage: event.usage }
    case 'max_steps':
      throw new StepLimitError(`the agent stopped at max_steps (${context.task.max_steps})`)
    case 'error':
      throw new Error(`the agent reported an error: ${event.error ?? 'no message'}`)
    case 'cancelled':
      if (context.signal.aborted) throw new TaskAbortedError(abortReason(context.signal))
      throw new Error('the agent cancelled its run without being asked to')
  }
}
