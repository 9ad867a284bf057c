import { z } from 'zod'

/**
 * Outcomes that are not the agent's doing: each names what broke. A task that ends in one is
 * recorded with it as `error.kind`, counted apart in the summary (`faults`), and never reused
 * by the cache, so the same command runs it again. Only `aborted` leaves the rates; the rest
 * count as not passed, since an agent could otherwise escape a task it was failing by breaking
 * its own sandbox (killing its container, exhausting its memory).
 */
export const FaultKind = z.enum([
  /** The run was interrupted (Ctrl-C, SIGTERM) while the task was in flight. */
  'aborted',
  /** The model API failed for good: unreachable, or erroring after the SDK's retries. */
  'model_error',
  /** The task's container stopped: killed, exited, or removed. */
  'sandbox_gone',
  /** The task's container was killed by the kernel at its memory limit. */
  'out_of_memory',
  /** The web clone stopped answering. */
  'clone_down',
  /** The Docker engine stopped answering. */
  'docker_unreachable',
  /** The Vitest worker running the task died (killed, crashed, out of memory). */
  'worker_killed',
  /** The sandbox could not be started (an image, a container, a browser context). */
  'sandbox_start',
])
export type FaultKind = z.infer<typeof FaultKind>

export const FAULT_DESCRIPTIONS: Record<FaultKind, string> = {
  aborted: 'interrupted while in flight',
  model_error: 'the model API failed after retries',
  sandbox_gone: 'the container stopped',
  out_of_memory: 'the container hit its memory limit',
  clone_down: 'the web clone stopped answering',
  docker_unreachable: 'the Docker engine stopped answering',
  worker_killed: 'the Vitest worker died',
  sandbox_start: 'the sandbox could not be started',
}

/** A fault's kind and what happened, as a record's `error` holds it. */
export interface Fault {
  kind: FaultKind
  message: string
}

export function isFaultKind(kind: string | null | undefined): kind is FaultKind {
  return FaultKind.safeParse(kind).success
}

/** Whether a record's outcome is a fault rather than the agent's result. */
export function isFault(record: { error: { kind: string } | null }): boolean {
  return isFaultKind(record.error?.kind)
}

/** An error's first line, for a fault's message. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0]!.slice(0, 500)
}
