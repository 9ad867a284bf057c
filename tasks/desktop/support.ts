/**
 * What only the bundled desktop suite uses (this is not a task file: only *.task.ts files are
 * tasks). Everything a desktop task of your own needs (launch, waits, moves, the shortcut near
 * miss, checks) is exported from 'agentest' (src/desktop-helpers/, docs/desktop.md).
 */
import type { SolutionContext } from 'agentest'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Types keys into galculator in runs in which no key repeats, with a pause between runs. The
 * Computer now paces a repeated key for galculator itself (so `computer.type` lands as typed);
 * the suite's solutions keep their own pacing, unchanged when the helpers moved to 'agentest'.
 */
export async function calculate({ computer }: Pick<SolutionContext, 'computer'>, keys: string): Promise<void> {
  let pending = ''
  for (const key of keys) {
    if (pending.includes(key)) {
      await computer.type(pending)
      await sleep(500)
      pending = ''
    }
    pending += key
  }
  if (pending) await computer.type(pending)
}
