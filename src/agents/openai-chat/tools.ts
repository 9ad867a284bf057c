import { z } from 'zod'
import type { Computer } from '../../computer/computer.ts'

/** A coordinate or distance in the model's convention (agent.options.coordinates); mapped to screen pixels after parsing. */
const Coordinate = z.number()
const Point = z.object({ x: Coordinate, y: Coordinate }).strict()

interface ToolSpec {
  description: string
  args: z.ZodType
  /** Only offered in a browser. */
  browser?: boolean
}

/** The chat agent's tools; each maps onto one ComputerAction of the same name (answer ends the task). */
export const CHAT_TOOLS = {
  click: {
    description: 'Click at a point of the screen (coordinates as the instructions say).',
    args: z.object({ x: Coordinate, y: Coordinate, button: z.enum(['left', 'right', 'middle']).optional() }).strict(),
  },
  double_click: { description: 'Double-click at a point.', args: Point },
  type: { description: 'Type text into the focused element.', args: z.object({ text: z.string() }).strict() },
  keypress: {
    description: 'Press keys together as one chord, e.g. ["ENTER"] or ["CTRL", "A"].',
    args: z.object({ keys: z.array(z.string().min(1)).min(1) }).strict(),
  },
  scroll: {
    description: 'Scroll with the mouse wheel at a point; scroll_y > 0 scrolls down.',
    args: z.object({ x: Coordinate, y: Coordinate, scroll_x: Coordinate, scroll_y: Coordinate }).strict(),
  },
  move: { description: 'Move the mouse to a point.', args: Point },
  drag: {
    description: 'Drag the mouse along a path of at least two points.',
    args: z.object({ path: z.array(Point).min(2) }).strict(),
  },
  wait: {
    description: 'Wait, in milliseconds (default 1000).',
    args: z.object({ ms: z.number().int().min(0).max(30_000).optional() }).strict(),
  },
  goto: {
    description: 'Open a URL in the current tab (absolute, or relative to the current page).',
    args: z.object({ url: z.string().min(1) }).strict(),
    browser: true,
  },
  back: { description: 'Go back to the previous page.', args: z.object({}).strict(), browser: true },
  answer: {
    description: 'Finish the task with your final answer: for a question the answer itself, otherwise a short summary.',
    args: z.object({ answer: z.string() }).strict(),
  },
} satisfies Record<string, ToolSpec>

export type ChatToolName = keyof typeof CHAT_TOOLS

export function availableTools(computer: Computer): ChatToolName[] {
  return (Object.keys(CHAT_TOOLS) as ChatToolName[]).filter((name) => {
    const spec: ToolSpec = CHAT_TOOLS[name]
    return !spec.browser || (computer.environment === 'browser' && Boolean(computer[name as 'goto' | 'back']))
  })
}

/** The `tools` parameter: JSON Schemas generated from the zod argument schemas. */
export function toolDefinitions(names: ChatToolName[]): Array<Record<string, unknown>> {
  return names.map((name) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(CHAT_TOOLS[name].args, { io: 'input' })
    return { type: 'function', function: { name, description: CHAT_TOOLS[name].description, parameters } }
  })
}

export type ParsedCall = { ok: true; name: ChatToolName; args: Record<string, unknown> } | { ok: false; error: string }

/** Parses one tool call: a known tool, JSON arguments, valid against its schema. */
export function parseToolCall(name: string, rawArgs: string, offered: ChatToolName[]): ParsedCall {
  if (!offered.includes(name as ChatToolName)) return { ok: false, error: `unknown tool "${name}" (tools: ${offered.join(', ')})` }
  const tool = name as ChatToolName
  let json: unknown
  try {
    json = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs)
  } catch {
    return { ok: false, error: `${tool}: the arguments are not valid JSON: ${rawArgs.slice(0, 200)}` }
  }
  const parsed = CHAT_TOOLS[tool].args.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path.length ? `.${issue.path.join('.')}` : ''
    return { ok: false, error: `${tool}${field}: ${issue.message}` }
  }
  return { ok: true, name: tool, args: parsed.data as Record<string, unknown> }
}
