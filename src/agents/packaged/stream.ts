import { randomBytes } from 'node:crypto'
import type { AgentContext, AgentOutcome } from '../agent.ts'
import { StepLimitError, TaskAbortedError, abortReason } from '../../trajectory/recording-computer.ts'
import { CANCEL_WAIT_MS, ProtocolError, type AgentServerClient } from '../../agent-images/client.ts'
import { PROTOCOL_VERSION, type FinalEvent, type RunEvent, type RunRequest, type StepEvent } from '../../agent-images/protocol.ts'

/** The run request both kinds get; a served agent's has no display and says where its Computer is. */
export async function runRequest(context: AgentContext, server: AgentServerClient, parts: Pick<RunRequest, 'display' | 'computer'>): Promise<RunRequest> {
  return {
    protocol: PROTOCOL_VERSION,
    run_id: `${context.task.id}-${randomBytes(4).toString('hex')}`.replaceAll(/[^A-Za-z0-9._-]/g, '-'),
    task: { id: context.task.id, instruction: context.task.goal, max_steps: context.task.max_steps },
    model: {
      base_url: context.config.base_url ? await server.containerUrl(context.config.base_url) : null,
      name: context.config.model,
      api_key_env: context.config.api_key_env,
    },
    ...parts,
    options: context.config.options,
  }
}

export interface StreamHandlers {
  /** Each step event, while the task runs (a throw ends the run: the agent is cancelled). */
  onStep(event: StepEvent): Promise<void>
  /**
   * Ends the stream early from the harness's side: a final event (the run is over without the
   * agent's own), or a rejection (the error that ends the task). The agent is cancelled either way.
   */
  interrupt?: Promise<FinalEvent>
}

/**
 * Runs one task on a packaged agent's server and reads its stream to the final event, which it
 * returns. On a timeout or Ctrl-C the agent is told to stop at once, and has CANCEL_WAIT_MS to
 * end its stream as cancelled (whether it did is on record: AgentServerClient.cancelOutcome);
 * then the stream is closed, and the container goes after.
 */
export async function streamRun(context: AgentContext, server: AgentServerClient, request: RunRequest, handlers: StreamHandlers): Promise<FinalEvent> {
  const stream = new AbortController()
  let closing: NodeJS.Timeout | null = null
  const onAbort = () => {
    void server.cancelActive()
    closing = setTimeout(() => stream.abort(), CANCEL_WAIT_MS)
  }
  context.signal.addEventListener('abort', onAbort, { once: true })
  const events = server.run(request, stream.signal)
  const interrupt = handlers.interrupt?.then(
    (final) => ({ interrupted: final }),
    (error: unknown) => {
      throw new Interrupted(error)
    },
  )
  interrupt?.catch(() => {})
  try {
    for (;;) {
      let next: IteratorResult<RunEvent> | { interrupted: FinalEvent }
      try {
        next = await (interrupt ? Promise.race([events.next(), interrupt]) : events.next())
      } catch (error) {
        if (error instanceof Interrupted) throw error.reason
        // A stream that broke (rather than one that said something wrong) because the server
        // died says so, with its exit code and last log lines.
        const broke = !(error instanceof ProtocolError) || /^the stream ended/.test(error.message)
        throw context.signal.aborted || !broke ? error : ((await server.down('mid-run')) ?? error)
      }
      if ('interrupted' in next) {
        await server.cancelActive()
        return next.interrupted
      }
      if (next.done) break
      const event = next.value
      // Stopped: nothing more is recorded; the stream is read until the agent ends it.
      if (context.signal.aborted) {
        if (event.type === 'final') break
        continue
      }
      if (event.type === 'final') return event
      await handlers.onStep(event)
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
}

/** The harness's interrupt ended the run (not the stream): `reason` is the task's error. */
class Interrupted {
  constructor(readonly reason: unknown) {}
}

/** The outcome a final event says. */
export function finish(event: FinalEvent, context: AgentContext): AgentOutcome {
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
