import { TaskAbortedError } from '../trajectory/recording-computer.ts'
import type { TaskSandbox } from './sandboxes.ts'
import { SandboxUnavailable } from './sandboxes.ts'
import { AgentStartError, errorLine, type Fault } from '../faults/kinds.ts'

/** The sandbox could not be started, after every retry; `retries` are the tries before the last. */
export class SandboxStartError extends Error {
  override name = 'SandboxStartError'
  constructor(
    readonly fault: Fault,
    readonly retries: Fault[],
  ) {
    super(fault.message)
  }
}

/**
 * Starts a task's sandbox, and starts it again (up to `retries` times) when it fails or is
 * already dead before the agent gets it: both are the machine's faults, never the agent's.
 * A sandbox that cannot exist here (SandboxUnavailable: no engine, no image) is not retried, nor
 * is a packaged agent's server that failed in a container that started (AgentStartError): that
 * is the agent's own fault, and would fail the same way again.
 */
export async function openWithRetries(
  open: () => Promise<TaskSandbox>,
  options: { retries: number; classify: (error: unknown) => Promise<Fault>; signal: AbortSignal },
): Promise<{ sandbox: TaskSandbox; retries: Fault[] }> {
  const failed: Fault[] = []
  for (;;) {
    let fault: Fault
    try {
      const sandbox = await open()
      const gone = await sandbox.gone().catch(() => null)
      if (!gone) return { sandbox, retries: failed }
      await sandbox.close(false).catch(() => undefined)
      fault = gone
    } catch (error) {
      // Nothing to retry: no sandbox can exist here, or the task was stopped before it started.
      if (error instanceof SandboxUnavailable || error instanceof TaskAbortedError) throw error
      if (error instanceof AgentStartError) throw new SandboxStartError(error.fault, failed)
      fault = await options.classify(error)
    }
    if (failed.length >= options.retries || options.signal.aborted) throw new SandboxStartError(fault, failed)
    failed.push(fault)
  }
}

/** What a start failure was: the engine not answering, the clone down, or the sandbox itself. */
export async function classifyStartError(error: unknown, probes: { engine?: () => Promise<boolean>; clone?: () => Promise<Fault | null> }): Promise<Fault> {
  // In full: a failed start's message may quote the container's log (redacted), which says why.
  const message = error instanceof Error ? error.message : String(error)
  if (probes.engine && !(await probes.engine().catch(() => false))) {
    return { kind: 'docker_unreachable', message: `the Docker engine does not answer: ${errorLine(error)}` }
  }
  const clone = await probes.clone?.().catch(() => null)
  if (clone) return clone
  return { kind: 'sandbox_start', message }
}
