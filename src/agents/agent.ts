import type { Computer } from '../computer/computer.ts'
import type { AgentServerClient } from '../agent-images/client.ts'
import type { ComputerAction } from '../schema/action.ts'
import type { ModelCacheSettings } from './shared/model-cache.ts'
import type { TranscriptHandle } from './shared/client.ts'
import type { AgentConfig } from '../schema/config.ts'
import type { AgentTask } from './task.ts'

export type { AgentTask } from './task.ts'

export interface TokenUsage {
  input_tokens: number
  output_tokens: number
}

/**
 * Everything an agent gets for one task: the goal and its limits, a Computer, and its own
 * settings. Nothing in it leads to the solution, the checks, or the sandbox behind the Computer.
 */
export interface AgentContext {
  /** The goal, the environment, the screen, the step budget and the time limit. */
  task: AgentTask
  /** Acts on the sandbox; every action is a recorded step, bounded by max_steps. Nothing else is reachable through it. */
  computer: Computer
  /** Aborted on timeout or Ctrl-C: stop promptly when it fires. */
  signal: AbortSignal
  /** Attaches a thought to the next recorded step. */
  think(thought: string): void
  /** The agent's settings from the config (model, base URL, api key env var, options). */
  config: AgentConfig
  /** Reports tokens and the model as the agent goes, so they are on record even if it fails. */
  meter?: AgentMeter
  /** Where model replies are cached (run.model_cache), or null: model agents pass it to createClient. */
  modelCache?: ModelCacheSettings | null
  /** Writes the task's transcript.jsonl: model agents pass it to createClient. */
  transcript?: TranscriptHandle | null
  /**
   * The task's own browser over the Chrome DevTools Protocol (`ws://127.0.0.1:<port>/devtools/browser/<id>`),
   * for a browser task whose agent sets `options.cdp: true`: connect a framework to it
   * (Playwright's `chromium.connectOverCDP`) and drive it; the harness records its navigations and
   * the screen. Absent (or null) otherwise. It takes connections for the agent's turn only.
   */
  cdpUrl?: string | null
}

/**
 * What the harness gives its own built-in agents beyond the sealed context, each to the agent
 * that needs it: the reference solution (oracle, near-miss), earlier runs (replay), and the
 * packaged agent's server (image). Granted by identity, never by name, and never to user agents.
 */
export interface HarnessAccess {
  /** Runs the task's reference solution (or the near miss under test), when the task has one. */
  reference: (() => Promise<string | null>) | null
  /** What the reference is: "the reference solution" or `near miss "wrong item"`, for messages. */
  referenceName: string
  /** The folder holding the run folders (absolute), for `replay` to find an earlier run. */
  resultsDir: string
  /** A packaged agent's server, running in the task's container (image agents only). */
  agentServer: AgentServerClient | null
  /**
   * Records a step a packaged agent took by itself in its container: the same budget and abort
   * checks as an action through `computer`, and the harness's own screenshot of the screen after it.
   */
  report(step: ReportedStep): Promise<void>
  /** Appends to the task's `agent.log` (a program's stdout and stderr), scrubbed of the run's secrets. */
  log(text: string): Promise<void>
}

export interface ReportedStep {
  action: ComputerAction
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

/** A built-in agent the harness trusts with more than the sealed context (see HarnessAccess). */
export interface HarnessAgent {
  name: string
  /** Marks the shape; the harness still trusts only the objects defineHarnessAgent made. */
  readonly harness: true
  run(context: AgentContext, access: HarnessAccess): Promise<AgentOutcome>
}

const harnessAgents = new WeakSet<HarnessAgent>()

/** Declares an agent; a module listed under the config's `agents:` default-exports one. */
export function defineAgent(agent: Agent): Agent {
  return agent
}

/** Declares one of agentest's own agents that needs harness access (not exported to users). */
export function defineHarnessAgent(agent: Omit<HarnessAgent, 'harness'>): HarnessAgent {
  const defined: HarnessAgent = Object.freeze({ ...agent, harness: true as const })
  harnessAgents.add(defined)
  return defined
}

/** Whether the harness itself declared this agent: the object, not its name, decides. */
export function isHarnessAgent(agent: Agent | HarnessAgent): agent is HarnessAgent {
  return harnessAgents.has(agent as HarnessAgent)
}
