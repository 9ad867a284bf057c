import { z } from 'zod'
import { TaskId, type TestCase } from '../schema/task.ts'

/**
 * What an agent is told about a task: what a person handed the task would get. No title (some
 * give the answer away), no checks, no solution, no file path: only the goal and the limits.
 */
export const AgentTask = z
  .object({
    id: TaskId,
    /** The instruction, as the task states it. */
    goal: z.string().min(1),
    environment: z.enum(['browser', 'linux', 'windows', 'mac']),
    /** The screen the agent sees, in pixels (screenshots and coordinates). */
    screen: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).strict(),
    /** The step budget: the action past it ends the task as max_steps. */
    max_steps: z.number().int().positive(),
    /** The wall-clock limit of the task, after which the run is stopped. */
    timeout_ms: z.number().int().positive(),
  })
  .strict()
export type AgentTask = z.infer<typeof AgentTask>

/** The sealed view of a task for its agent (frozen, so an agent cannot alter what others read). */
export function agentTaskOf(
  testCase: Pick<TestCase, 'id' | 'task'>,
  limits: { environment: AgentTask['environment']; screen: AgentTask['screen']; maxSteps: number; timeoutMs: number },
): AgentTask {
  const task = AgentTask.parse({
    id: testCase.id,
    goal: testCase.task,
    environment: limits.environment,
    screen: { width: limits.screen.width, height: limits.screen.height },
    max_steps: limits.maxSteps,
    timeout_ms: limits.timeoutMs,
  })
  Object.freeze(task.screen)
  return Object.freeze(task)
}
