import type { Computer } from '../computer/computer.ts'
import type { AgentServerClient } from '../agent-images/client.ts'
import type { ComputerAction } from '../schema/action.ts'
import type { ModelCacheSettings } from './shared/model-cache.ts'
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
  /** Where model replies are cached (run.model_cache), or null: model agents pass it to createClient. */
  modelCache?: ModelCacheSettings | null
  /** The step budget (the config's max_steps, else the task's). */
  maxSteps?: number
  /** A packaged agent's server, running in the task's container (image agents only). */
  agentServer?: AgentServerClient | null
  /**
   * Records a step the agent took by itself (a packaged agent acting in its own container),
   * with the same budget and abort checks as an action through `computer`.
   */
  report?: (step: ReportedStep) => Promise<void>
}

export interface ReportedStep {
  action: ComputerAction
  /** The screen after the action; taken by the harness when missing. */
  screenshot: Buffer | null
  error: string | null
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
