import type { Computer } from '../computer/computer.ts'
import type { TaskSandbox } from '../sandbox/kind.ts'
import type { SolutionContext } from './spec.ts'

/** The parts of a solution context some kinds have and others not: asking for a missing one says so. */
const KIND_PARTS = ['ui', 'shop', 'desktop', 'app'] as const

/**
 * What a reference solution, a near miss or an alternative gets: the recorded Computer, the
 * sandbox kind's helpers to look with (a browser's `ui` and `app`, an app's own, a desktop's
 * container), the signal and a way to think aloud.
 */
export function solutionContext(sandbox: TaskSandbox, computer: Computer, signal: AbortSignal, think: (thought: string) => void): SolutionContext {
  const context: Record<string, unknown> = { computer, signal, think }
  for (const part of KIND_PARTS) {
    Object.defineProperty(context, part, {
      get() {
        throw new Error(`${part} is not there in this task's solution context (its sandbox has none)`)
      },
      configurable: true,
      enumerable: false,
    })
  }
  for (const [name, value] of Object.entries(sandbox.solutionParts(computer))) {
    Object.defineProperty(context, name, { value, enumerable: true, configurable: true })
  }
  return context as unknown as SolutionContext
}
