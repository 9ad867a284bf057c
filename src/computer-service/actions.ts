import { z } from 'zod'
import type { Computer } from '../computer/computer.ts'
import { ComputerAction } from '../schema/action.ts'

/** Every action type the Computer knows, from its schema, so a new action is served without a change here. */
type ActionType = ComputerAction['type']

/** One line per action for an agent's tool list; the fields are the action's own (src/schema/action.ts). */
const DESCRIPTIONS: Record<Exclude<ActionType, 'screenshot'>, string> = {
  click: 'Click at a point of the screen, in pixels. button: left (default), right, middle, back, forward; keys: modifiers held during the click.',
  double_click: 'Double-click at a point.',
  triple_click: 'Triple-click at a point (selects a line or paragraph).',
  scroll: 'Scroll with the mouse wheel at a point, by scroll_x and scroll_y pixels; scroll_y > 0 scrolls down.',
  mouse_down: 'Press a mouse button where the pointer is.',
  mouse_up: 'Release a mouse button where the pointer is.',
  hold_key: 'Hold keys down together for ms milliseconds, then release them.',
  type: 'Type text into whatever has the focus.',
  wait: 'Wait ms milliseconds (default 1000).',
  move: 'Move the pointer to a point.',
  keypress: 'Press keys together as one chord, e.g. ["ENTER"] or ["CTRL", "A"].',
  drag: 'Drag along a path of at least two points, the button held from the first to the last.',
  goto: 'Open a URL in the current tab (browser tasks only).',
  back: 'Go back to the previous page (browser tasks only).',
  forward: 'Go forward again (browser tasks only).',
}

const BROWSER_ONLY = new Set<ActionType>(['goto', 'back', 'forward'])

/** An optional note the agent attaches to the step: it shows beside the step in the trajectory. */
export const Thought = z.string().max(20_000).optional()

export interface ServedAction {
  type: Exclude<ActionType, 'screenshot'>
  description: string
  /** The action's fields without `type`, plus an optional `thought`. */
  args: z.ZodObject
}

/** The actions this computer can take, as served tools: browser-only ones only where there is a browser. */
export function servedActions(computer: Computer): ServedAction[] {
  return ComputerAction.options.flatMap((option: z.ZodObject) => {
    const type = (option.shape.type as z.ZodLiteral<ActionType>).value
    if (type === 'screenshot') return []
    if (BROWSER_ONLY.has(type) && !computer[type as 'goto' | 'back' | 'forward']) return []
    const args = option.omit({ type: true }).extend({ thought: Thought }).strict()
    return [{ type, description: DESCRIPTIONS[type], args }]
  })
}

/** An action as the HTTP API takes it: the action itself, and an optional thought. */
export const ActionRequest = z.intersection(ComputerAction, z.object({ thought: Thought }))

/**
 * The finish call: the agent's final answer (for a question, the answer itself; otherwise a
 * summary or null), and optionally the tokens its model used over the whole run and the model
 * that answered, which the record and the summary's costs then count.
 */
export const FinishRequest = z
  .object({
    answer: z.string().max(100_000).nullable().default(null),
    usage: z.object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() }).strict().optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .strict()
export type FinishRequest = z.infer<typeof FinishRequest>

/** A tool as a model is offered it: its name, what it does, and its arguments' JSON Schema. */
export interface ToolDescription {
  name: string
  description: string
  parameters: Record<string, unknown>
}

export const FINISH_DESCRIPTION =
  'End the task with your final answer: for a question the answer itself, otherwise a short summary (or null). Optionally say the tokens your model used over the whole run (usage) and which model answered.'

/**
 * The served tools as function definitions a model takes (Chat Completions' `parameters`,
 * Responses' and Messages' input schemas): the arguments as given (defaults optional), without
 * `$schema` and the integer bounds zod adds (±2^53, which some providers refuse).
 */
export function toolDescriptions(computer: Computer): ToolDescription[] {
  const actions = servedActions(computer).map((action) => ({ name: action.type, description: action.description, parameters: modelSchema(action.args) }))
  return [...actions, { name: 'finish', description: FINISH_DESCRIPTION, parameters: modelSchema(FinishRequest) }]
}

function modelSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>
  return withoutSafeIntegerBounds(json) as Record<string, unknown>
}

function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds)
  if (typeof value !== 'object' || value === null) return value
  const entries = Object.entries(value).filter(([key, v]) => !((key === 'minimum' || key === 'maximum') && Math.abs(Number(v)) === Number.MAX_SAFE_INTEGER))
  return Object.fromEntries(entries.map(([key, v]) => [key, withoutSafeIntegerBounds(v)]))
}
