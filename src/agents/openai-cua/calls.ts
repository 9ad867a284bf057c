import { z } from 'zod'
import type { AgentContext } from '../agent.ts'
import { act, checkAction, type ToolErrors } from '../shared/act.ts'
import type { UrlBlocklist } from '../shared/blocklist.ts'
import { pngDataUrl, type ScreenScale } from '../shared/image.ts'
import type { ComputerCallItem, FunctionCallItem, InputItem, SafetyCheck } from './items.ts'
import type { CuaOptions } from './options.ts'

/** A pending safety check the configured policy does not acknowledge ends the task. */
export class SafetyCheckError extends Error {
  override name = 'SafetyCheckError'
}

export interface CallContext {
  ctx: AgentContext
  options: CuaOptions
  scale: ScreenScale
  blocklist: UrlBlocklist
  toolErrors: ToolErrors
  /** Invalid actions, told to the model in a message after the outputs. */
  notes: string[]
}

/** Runs a computer_call's action (or batch of actions) and answers with the screen afterwards. */
export async function runComputerCall(item: z.infer<typeof ComputerCallItem>, call: CallContext): Promise<InputItem> {
  const { computer } = call.ctx
  const acknowledged = settleSafetyChecks(item.pending_safety_checks ?? [], call.options)
  const actions = item.actions ?? [item.action]
  for (const raw of actions) {
    const checked = await checkAction(raw, call.scale, computer)
    if (!checked.ok) {
      call.toolErrors.note(checked.error)
      call.notes.push(`Your action was not performed: ${checked.error}`)
      break
    }
    await act(computer, checked.action, call.blocklist)
  }
  const url = computer.environment === 'browser' ? await computer.currentUrl() : null
  const image_url = pngDataUrl(await call.scale.encode(await computer.screenshot()))
  return {
    type: 'computer_call_output',
    call_id: item.call_id,
    output: { type: 'input_image', image_url, ...(url ? { current_url: url } : {}) },
    ...(acknowledged.length ? { acknowledged_safety_checks: acknowledged } : {}),
  }
}

/** Acknowledge: the checks go back with the output. Stop: the check's message ends the task. */
function settleSafetyChecks(checks: SafetyCheck[], options: CuaOptions): SafetyCheck[] {
  const first = checks[0]
  if (first && options.safety_checks === 'stop') {
    const what = first.code ? `${first.code}: ` : ''
    throw new SafetyCheckError(`safety check ${what}${first.message ?? first.id} (agent.options.safety_checks: stop)`)
  }
  return checks
}

const FUNCTION_ARGS = {
  goto: z.object({ url: z.string().min(1) }).strict(),
  back: z.object({}).strict(),
}

/** Runs a goto/back function call; a bad call is answered with an error text, not a crash. */
export async function runFunctionCall(item: z.infer<typeof FunctionCallItem>, call: CallContext): Promise<InputItem> {
  const reply = (output: string): InputItem => ({ type: 'function_call_output', call_id: item.call_id, output })
  const fail = (error: string) => {
    call.toolErrors.note(error)
    return reply(`error: ${error}`)
  }
  const schema = FUNCTION_ARGS[item.name as keyof typeof FUNCTION_ARGS]
  if (!schema) return fail(`unknown function "${item.name}" (known: ${Object.keys(FUNCTION_ARGS).join(', ')})`)
  let args: unknown
  try {
    args = JSON.parse(item.arguments || '{}')
  } catch {
    return fail(`${item.name}: arguments are not JSON: ${item.arguments.slice(0, 200)}`)
  }
  const parsed = schema.safeParse(args)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return fail(`${item.name}${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`)
  }
  const checked = await checkAction({ type: item.name, ...parsed.data }, call.scale, call.ctx.computer)
  if (!checked.ok) return fail(checked.error)
  await act(call.ctx.computer, checked.action, call.blocklist)
  return reply(`done; the page is now ${await call.ctx.computer.currentUrl()}`)
}
