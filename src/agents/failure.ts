/**
 * How an agent's own program failed, by name, so the record says which (not just `agent_error`):
 * - agent_not_started: the program could not be started (not found, not executable);
 * - agent_exit: it exited with a non-zero code before finishing;
 * - agent_crash: it was killed by a signal it did not get from the harness (a segfault, the OOM killer);
 * - agent_no_finish: it exited with code 0 without calling finish.
 * Each is the agent's fault, never retried as the infrastructure's.
 */
export type AgentFailureKind = 'agent_not_started' | 'agent_exit' | 'agent_crash' | 'agent_no_finish'

export class AgentFailure extends Error {
  override name = 'AgentFailure'
  constructor(
    readonly kind: AgentFailureKind,
    message: string,
  ) {
    super(message)
  }
}
