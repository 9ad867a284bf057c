import type { Computer, Environment } from '../computer/computer.ts'

/** What a served task hands over: the goal and the limits (an agent's sealed task has these fields). */
export interface ServedTaskInfo {
  id: string
  goal: string
  environment: Environment
  screen: { width: number; height: number }
  max_steps: number
  timeout_ms: number
}

/** What the service needs of an agent's context: the task, its recorded Computer, and where thoughts go. */
export interface ServedContext {
  task: ServedTaskInfo
  computer: Computer
  think(thought: string): void
}
