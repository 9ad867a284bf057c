import { z } from 'zod'

/**
 * Outcomes that are faults rather than the agent's result: each names what broke. A task that ends
 * in one is recorded with it as `error.kind`, counted apart in the summary (`faults`), and never
 * reused by the cache, so the same command runs it again. Which of them leave the rates is
 * `isNotAgentsDoing`'s rule (below).
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
  /**
   * The task's container wrote past its disk limit (docker.disk_mb) and was stopped: a budget of
   * the task, as memory is, so the agent's doing (src/sandbox/desktop/disk-watch.ts).
   */
  'disk_limit',
  /** The web clone stopped answering. */
  'clone_down',
  /** The Docker engine stopped answering. */
  'docker_unreachable',
  /** The Vitest worker running the task died (killed, crashed, out of memory). */
  'worker_killed',
  /** The sandbox could not be started (an image, a container, a browser context). */
  'sandbox_start',
  /**
   * A packaged agent's server did not come up in its started container: it exited, never
   * answered its health path, or listens where the harness cannot reach it (127.0.0.1 inside
   * the container). The agent's own doing: in the rates, and not retried.
   */
  'agent_start',
])
export type FaultKind = z.infer<typeof FaultKind>

export const FAULT_DESCRIPTIONS: Record<FaultKind, string> = {
  aborted: 'interrupted while in flight',
  model_error: 'the model API failed after retries',
  sandbox_gone: 'the container stopped',
  out_of_memory: 'the container hit its memory limit',
  disk_limit: 'the container wrote past its disk limit',
  clone_down: 'the web clone stopped answering',
  docker_unreachable: 'the Docker engine stopped answering',
  worker_killed: 'the Vitest worker died',
  sandbox_start: 'the sandbox could not be started',
  agent_start: "the packaged agent's server did not start",
}

/** A fault's kind and what happened, as a record's `error` holds it. */
export interface Fault {
  kind: FaultKind
  message: string
}

export function isFaultKind(kind: string | null | undefined): kind is FaultKind {
  return FaultKind.safeParse(kind).success
}

/**
 * The faults the infrastructure or the model provider caused, never the agent: a task ending in one
 * is left out of the rates (`faulted`, src/runs/outcome.ts) and re-run, as an unscored task is.
 * A kind not listed counts as the agent's doing, so a new kind stays in the rates until added here.
 * `out_of_memory` (and `disk_limit`) is not here: the container's memory limit is a budget of the task, as its step
 * limit is, and what fills it is what the agent opened and ran there (a process of the agent's user
 * that allocates until the kernel kills it would otherwise be a way out of any task it is failing).
 * `agent_start` is not here either: the container and its desktop started, and the packaged agent's
 * own server is what exited, never answered, or listened where it cannot be reached.
 * `sandbox_gone` cannot be the agent's making: once the desktop is up its container is held by a
 * root process (the image's entrypoint) that the agent's user cannot signal, so an agent that kills
 * its own desktop fails its checks instead. In an image without the observer (not built on
 * agentest/desktop) the container's main process is the agent's; the count of faulted tasks beside
 * the rate, and their re-run, are what show it there.
 */
const NOT_THE_AGENTS_DOING: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'aborted', // the run was interrupted by its operator
  'model_error', // the provider: unreachable, 5xx or 429 after retries, a malformed body, a key or model refused
  'sandbox_gone', // the container was killed, removed or stopped from outside
  'clone_down', // the web clone (the harness's server) stopped answering
  'docker_unreachable',
  'worker_killed', // the Vitest process running the task died; Vitest ends the run then
  'sandbox_start', // before the agent's first action
])

/**
 * HTTP statuses of a model call refused for the request itself (malformed, too long): the request
 * is the agent's loop's making, so that `model_error` is the agent's doing. The status is read from
 * ModelCallError's message (src/agents/shared/client.ts, src/agents/anthropic-cu/client.ts):
 * `… failed: 400 …` (openai) or `… failed (400): …` (anthropic).
 */
const REQUEST_REFUSED = new Set([400, 413, 422])
const MODEL_STATUS = /\bfailed(?: \((\d{3})\))?: (?:(\d{3})\b)?/

/**
 * A packaged agent's server failed to start in a container that did (agent_start): the agent's
 * fault, so its start is not retried as the machine's would be. The fault is read from the
 * message, so scrubbing the message of secrets (redactError) scrubs the fault too.
 */
export class AgentStartError extends Error {
  override name = 'AgentStartError'
  get fault(): Fault {
    return { kind: 'agent_start', message: this.message }
  }
}

/** Whether a record's error is a fault that the infrastructure or the provider caused, not the agent. */
export function isNotAgentsDoing(error: { kind: string; message: string } | null): boolean {
  if (!error || !isFaultKind(error.kind) || !NOT_THE_AGENTS_DOING.has(error.kind)) return false
  if (error.kind !== 'model_error') return true
  const match = MODEL_STATUS.exec(error.message)
  return !REQUEST_REFUSED.has(Number(match?.[1] ?? match?.[2]))
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
