import sharp from 'sharp'
import { z } from 'zod'
import type { AgentContext } from '../agent.ts'
import { act, checkAction, type ToolErrors } from '../shared/act.ts'
import type { UrlBlocklist } from '../shared/blocklist.ts'
import type { ScreenScale } from '../shared/image.ts'
import { planComputerAction } from './actions.ts'
import { imageBlock, textBlock, type ToolUseBlock } from './messages.ts'
import { fitForClaude } from './screen.ts'

export interface ToolContext {
  ctx: AgentContext
  scale: ScreenScale
  blocklist: UrlBlocklist
  toolErrors: ToolErrors
  /** Whether the tool version has zoom. */
  zoom: boolean
  /** Screen pixels one unit of scroll_amount scrolls. */
  scrollUnitPx: number
}

type ToolResult = Record<string, unknown>

/** Answers one tool_use: runs it (each action a recorded step) and returns its tool_result. */
export async function runToolUse(use: ToolUseBlock, call: ToolContext): Promise<ToolResult> {
  if (use.name === 'computer') return runComputer(use, call)
  if (use.name === 'goto' || use.name === 'back') return runBrowserTool(use, call)
  return failed(use, call, `unknown tool "${use.name}" (known: computer${call.ctx.computer.goto ? ', goto, back' : ''})`)
}

async function runComputer(use: ToolUseBlock, call: ToolContext): Promise<ToolResult> {
  const { computer } = call.ctx
  const { scale } = call
  const pointer = async () => {
    const at = await computer.cursorPosition()
    return { x: Math.round(at.x * scale.factor), y: Math.round(at.y * scale.factor) }
  }
  const planned = await planComputerAction(use.input, pointer, call.zoom)
  if (!planned.ok) return failed(use, call, planned.error)
  const { plan } = planned
  switch (plan.kind) {
    case 'screenshot':
      return result(use, [imageBlock(await scale.encode(await computer.screenshot()))])
    case 'cursor_position': {
      const at = await pointer()
      return result(use, [textBlock(`X=${at.x},Y=${at.y}`)])
    }
    case 'zoom':
      return zoom(use, call, plan.region)
    case 'steps':
      for (const step of plan.steps) {
        // scroll_amount is in units of the wheel; the action's distances are screenshot pixels.
        const units = (n: number) => Math.round(n * call.scrollUnitPx * scale.factor)
        const raw = step.type === 'scroll' ? { ...step, scroll_x: units(step.scroll_x), scroll_y: units(step.scroll_y) } : step
        const checked = await checkAction(raw, scale, computer)
        if (!checked.ok) return failed(use, call, checked.error)
        await act(computer, checked.action, call.blocklist)
      }
      return result(use, [imageBlock(await scale.encode(await computer.screenshot()))])
  }
}

/** A region of the screenshot's coordinates, cut from the screen at its full resolution. */
async function zoom(use: ToolUseBlock, call: ToolContext, [x1, y1, x2, y2]: [number, number, number, number]): Promise<ToolResult> {
  const { scale } = call
  const left = scale.x(Math.min(x1, x2))
  const top = scale.y(Math.min(y1, y2))
  const width = Math.min(scale.screen.width, scale.x(Math.max(x1, x2))) - left
  const height = Math.min(scale.screen.height, scale.y(Math.max(y1, y2))) - top
  if (width < 1 || height < 1) return failed(use, call, `zoom.region: [${x1}, ${y1}, ${x2}, ${y2}] is empty (it is [x1, y1, x2, y2] with x1 < x2 and y1 < y2)`)
  const cut = sharp(await call.ctx.computer.screenshot()).extract({ left, top, width, height })
  const fit = fitForClaude({ width, height })
  const png = await (fit.width < width ? cut.resize(fit.width, fit.height) : cut).png().toBuffer()
  return result(use, [imageBlock(png)])
}

const BROWSER_ARGS = {
  goto: z.object({ url: z.string().min(1) }).strict(),
  back: z.object({}).strict(),
}

async function runBrowserTool(use: ToolUseBlock, call: ToolContext): Promise<ToolResult> {
  const { computer } = call.ctx
  const name = use.name as keyof typeof BROWSER_ARGS
  const parsed = BROWSER_ARGS[name].safeParse(use.input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return failed(use, call, `${name}${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`)
  }
  const checked = await checkAction({ type: name, ...parsed.data }, call.scale, computer)
  if (!checked.ok) return failed(use, call, checked.error)
  await act(computer, checked.action, call.blocklist)
  const screen = imageBlock(await call.scale.encode(await computer.screenshot()))
  return result(use, [textBlock(`The page is now ${await computer.currentUrl()}`), screen])
}

function result(use: ToolUseBlock, content: Array<Record<string, unknown>>): ToolResult {
  return { type: 'tool_result', tool_use_id: use.id, content }
}

/** An invalid call is answered (every tool_use needs its result) and counted against max_tool_errors. */
function failed(use: ToolUseBlock, call: ToolContext, error: string): ToolResult {
  call.toolErrors.note(error)
  return { type: 'tool_result', tool_use_id: use.id, is_error: true, content: [textBlock(`Error: ${error}`)] }
}
