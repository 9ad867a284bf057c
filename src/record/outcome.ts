import type { AgentStatus, RunError, RunStatus } from '../schema/run.ts'

/** Before the agent got its sandbox, or once it had it. */
export type Phase = 'start' | 'run'

/**
 * The one table from how a task ended (its error's kind) to the agent's status. A task stopped
 * (its timeout, Ctrl-C) is that whenever it happens; before the agent started, anything else
 * means it did not run; once it ran, a kind not listed is an error.
 */
const AGENT_STATUS: Record<Phase, Partial<Record<string, AgentStatus>>> = {
  start: { timeout: 'timeout', aborted: 'aborted' },
  run: { max_steps: 'max_steps', timeout: 'timeout', aborted: 'aborted', not_applicable: 'not_run', skipped: 'not_run' },
}
const OTHERWISE: Record<Phase, AgentStatus> = { start: 'not_run', run: 'error' }

export function agentStatusOf(error: RunError | null, phase: Phase): AgentStatus {
  if (!error) return phase === 'run' ? 'done' : 'not_run'
  return AGENT_STATUS[phase][error.kind] ?? OTHERWISE[phase]
}

/** A test's error, as the reporter tells a failed check from anything else that broke it. */
export interface TestError {
  name?: string
  message: string
}

/**
 * The task's status from the agent's and Vitest's: a stopped or erring agent wins; then a skip,
 * a pass; a failure is `failed` only when every error is a failed check.
 */
export function runStatusOf(state: 'passed' | 'failed' | 'skipped', agentStatus: AgentStatus, errors: readonly TestError[], isCheck: (error: TestError) => boolean): RunStatus {
  if (agentStatus === 'timeout' || errors.some((e) => /test timed out/i.test(e.message))) return 'timeout'
  if (agentStatus === 'aborted') return 'aborted'
  if (agentStatus === 'error') return 'error'
  if (state === 'skipped') return 'skipped'
  if (state === 'passed') return 'passed'
  return errors.every(isCheck) ? 'failed' : 'error'
}

/**
 * A test that failed before its session wrote anything: its worker died under it (Vitest's
 * words for a killed or crashed fork), or something else broke before the sandbox existed.
 */
export function kindWithoutRecord(message: string): string {
  return /worker .*(exited|emitted error)|Worker exited unexpectedly|Channel closed|process exited/i.test(message) ? 'worker_killed' : 'error'
}
