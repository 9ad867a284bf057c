import type { Computer } from '../computer/computer.ts'
import type { AgentConfig } from '../schema/config.ts'
import type { TestCase } from '../schema/task.ts'

export interface TokenUsage {
  input_tokens: number
  output_tokens: number
}

/** Everything an agent gets for one task. */
export interface AgentContext {
  task: TestCase
  /** Acts on the sandbox; every action is a recorded step, bounded by max_steps. */
  computer: Computer
  /** Aborted on timeout or Ctrl-C: stop promptly when it fires. */
  signal: AbortSignal
  /** Attaches a thought to the next recorded step. */
  think(thought: string): void
  /** The agent's settings from the config (model, base URL, api key env var, options). */
  config: AgentConfig
  /** Runs the task's reference solution, when the task has one (used by the oracle). */
  reference: (() => Promise<string | null>) | null
  /** The folder holding the run folders (absolute), e.g. for `replay` to find an earlier run. */
  resultsDir?: string
  /** Reports tokens and the model as the agent goes, so they are on record even if it fails. */
  meter?: AgentMeter
}

export interface AgentMeter {
  addTokens(input: number | null | undefined, output: number | null | undefined): void
  setModel(model: string): void
}

export interface AgentOutcome {
  /** The agent's final message to the user, if any. */
  answer: string | null
  usage?: TokenUsage
}

export interface Agent {
  /** Registry name, as used in the config's `agent.name`. */
  name: string
  /** Runs until done; throwing ends the task with status "error". */
  run(context: AgentContext): Promise<AgentOutcome>
}

/** Declares an agent; a module listed under the config's `agents:` default-exports one. */
export function defineAgent(agent: Agent): Agent {
  return agent
}
