import type { Fault } from '../faults/kinds.ts'
import { plainText } from '../files/plain-text.ts'
import { LimitReachedError, type LimitHit } from '../limits/index.ts'
import { ModelCallError } from '../agents/shared/client.ts'
import { AgentFailure } from '../agents/failure.ts'
import type { RunError } from '../schema/run.ts'
import { abortReason, BlockedUrlError, SandboxGoneError, StepLimitError, TaskAbortedError } from '../trajectory/recording-computer.ts'
import { ReferenceSolutionError } from './reference-error.ts'
import { stoppedFault } from './stopped.ts'
import { cdpTurnOf } from '../sandbox/browser/cdp-turn.ts'
import type { TaskSandbox } from '../sandbox/kind.ts'

/** What the session knew when the agent's run threw. */
export interface StopFacts {
  /** Why the sandbox stopped working, if it did. */
  gone: Fault | null
  /** The task's token or cost limit, once the agent went past it. */
  limitHit: LimitHit | null
  signal: AbortSignal
  /** Scrubs the run's secrets from text bound for the record. */
  redact: (text: string) => string
}

/**
 * What stopped the agent, as the record's error, in the order that decides: its step budget, a
 * limit, a stop (its timeout, Ctrl-C; a timeout a dead sandbox caused is that fault), a blocked
 * URL, a dead sandbox, then whose code threw (the reference solution, the model, the agent).
 */
export function stopReason(error: unknown, { gone: probed, limitHit, signal, redact }: StopFacts): RunError {
  const message = plainText(redact(error instanceof Error ? error.message : String(error)))
  const gone = error instanceof SandboxGoneError ? error.fault : probed
  if (error instanceof StepLimitError) return { kind: 'max_steps', message }
  if (error instanceof LimitReachedError || limitHit) {
    const hit = error instanceof LimitReachedError ? error.hit : limitHit!
    return { kind: hit.kind, message: hit.message }
  }
  const timedOut = signal.aborted && /timed out/i.test(abortReason(signal))
  if ((error instanceof TaskAbortedError || signal.aborted) && !(gone && timedOut)) return stoppedFault(abortReason(signal), 'in flight')
  if (error instanceof BlockedUrlError) return { kind: 'blocked_url', message }
  if (gone) return { kind: gone.kind, message: plainText(redact(gone.message)) }
  if (error instanceof ReferenceSolutionError) return { kind: 'reference_error', message }
  if (error instanceof ModelCallError) return { kind: 'model_error', message }
  if (error instanceof AgentFailure) return { kind: error.kind, message }
  return { kind: 'agent_error', message }
}

/** Errors that are the harness's own stops: nothing the agent threw after them replaces them. */
const HARNESS_VERDICTS = [StepLimitError, LimitReachedError, TaskAbortedError, SandboxGoneError, BlockedUrlError]

/**
 * What the harness saw outranks what the agent threw after it: an agent cut off at its budget
 * over CDP, or one whose page loaded a blocked URL, often fails next (its connection closed, the
 * page refused), and that failure is not the reason. The harness's own stops keep their kind.
 */
export function harnessVerdict(error: unknown, sandbox: TaskSandbox): unknown {
  if (HARNESS_VERDICTS.some((verdict) => error instanceof verdict)) return error
  const cut = cdpTurnOf(sandbox)?.cutOffBy
  if (cut) return cut
  const blocked = sandbox.violations()[0]
  return blocked ? new BlockedUrlError(`the page tried to load a blocked URL: ${blocked}`) : error
}
