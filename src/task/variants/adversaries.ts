import type { Solution, SolutionContext } from '../spec.ts'
import { hedgeCandidates } from './candidates.ts'
import { NotApplicable } from './not-applicable.ts'
import type { AdversaryTask, GeneratedNearMiss } from './names.ts'

/** The solution a generated near miss runs, built from the task's reference solution. */
export function adversary(name: GeneratedNearMiss, task: AdversaryTask, reference: Solution): Solution {
  switch (name) {
    case 'hedger':
      // Does the task right, then answers with every candidate beside the right one.
      return async (context) => {
        const answer = await reference(context)
        if (!answer) throw new NotApplicable('the reference solution gives no answer to hedge')
        const others = await hedgeCandidates(context, task.kind, answer)
        return `${answer}\n\nIt could also be one of these:\n${others.join('\n')}`
      }
    case 'echo':
      // Does nothing, and answers with the goal's own words.
      return async () => task.goal
    case 'placed then cancelled':
      // Does the task right, then cancels every order it placed.
      return async (context) => {
        const answer = await reference(context)
        const placed = await placedOrders(context)
        if (placed.length === 0) throw new NotApplicable('the reference solution places no order')
        for (const id of placed) {
          await context.ui.goto('/orders')
          await context.shop.cancelOrder(id)
        }
        return answer
      }
    case 'shortcut without history':
    case 'shortcut in a renamed window':
    case 'shortcut with forged app state':
    case 'shortcut left running':
      // The task's shortcut (`reference` here), told which trick to play; one that cannot play it says so.
      return async (context) => {
        let played = false
        const trick = { name, played: () => void (played = true) }
        const tricked = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(context), trick: { value: trick } }) as SolutionContext
        const answer = await reference(tricked)
        if (!played) throw new NotApplicable(`the task's shortcut does not play the trick "${name}" (inTerminal in tasks/desktop/shortcuts.ts does)`)
        return answer
      }
    case 'duplicate':
      // Does the task right twice: the right order, placed two times.
      return async (context) => {
        const answer = await reference(context)
        if ((await placedOrders(context)).length === 0) throw new NotApplicable('the reference solution places no order')
        await context.ui.goto(task.start_path)
        try {
          await reference(context)
        } catch (error) {
          throw new NotApplicable(`the reference solution cannot be repeated: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
        }
        return answer
      }
  }
}

async function placedOrders(context: SolutionContext): Promise<string[]> {
  // Orders are Omnizon's: on another app there is nothing to cancel or place twice.
  if (context.app.name !== 'omnizon') throw new NotApplicable(`orders are Omnizon's; this task runs on ${context.app.name}`)
  const shop = await context.app.finish()
  return shop.newOrders.filter((order) => order.status === 'placed').map((order) => order.id)
}
