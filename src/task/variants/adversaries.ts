import { appKit, type AppOrders } from '../../sandbox/browser/app-kit.ts'
import type { Solution, SolutionContext } from '../spec.ts'
import { candidateSource, hedgedAnswer } from './candidates.ts'
import { NotApplicable } from './not-applicable.ts'
import type { AdversaryTask, GeneratedNearMiss } from './names.ts'

/** The solution a generated near miss runs, built from the task's reference solution. */
export function adversary(name: GeneratedNearMiss, task: AdversaryTask, reference: Solution): Solution {
  switch (name) {
    case 'hedger':
      // Does the task right, then answers with every candidate beside the right one.
      return async (context) => {
        const source = candidateSource(context, task)
        const answer = await reference(context)
        if (!answer) throw new NotApplicable('the reference solution gives no answer to hedge')
        return hedgedAnswer(source, answer)
      }
    case 'echo':
      // Does nothing, and answers with the goal's own words.
      return async () => task.goal
    case 'placed then cancelled':
      // Does the task right, then cancels every order it placed.
      return async (context) => {
        const orders = declaredOrders(context)
        if (!orders.cancel) throw new NotApplicable(`the ${appTitle(context)} app declares no way to cancel an order (its kit's orders.cancel)`)
        const answer = await reference(context)
        const placed = await orders.placed(context.app)
        if (placed.length === 0) throw new NotApplicable('the reference solution places no order')
        for (const id of placed) await orders.cancel(context.ui, id)
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
        if (!played) throw new NotApplicable(`the task's shortcut does not play the trick "${name}" (agentest's inTerminal does)`)
        return answer
      }
    case 'duplicate':
      // Does the task right twice: the right order, placed two times.
      return async (context) => {
        const orders = declaredOrders(context)
        const answer = await reference(context)
        if ((await orders.placed(context.app)).length === 0) throw new NotApplicable('the reference solution places no order')
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

/**
 * The orders of the task's app, as its kit declares them. Said before the reference runs: an app
 * without orders has nothing to cancel or place twice, so the variant is not applicable.
 */
function declaredOrders(context: SolutionContext): AppOrders {
  const orders = appKit(context.app.name).orders
  if (!orders) throw new NotApplicable(`the ${appTitle(context)} app declares no orders (its kit's orders: registerAppKit), so there is none to cancel or place twice`)
  return orders
}

const appTitle = (context: SolutionContext) => appKit(context.app.name).title ?? context.app.name
