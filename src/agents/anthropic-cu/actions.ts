import { z } from 'zod'
import { canonicalKey } from '../../computer/key-names.ts'
import type { ComputerActionInput } from '../../schema/action.ts'

/** A point on the screenshot, as Claude states it: [x, y]. */
const Coordinate = z.tuple([z.number(), z.number()])
/** Modifier keys held during a click or scroll, xdotool style: "shift", "ctrl+shift". */
const Held = z.string().min(1).optional()
const Click = z.object({ coordinate: Coordinate.optional(), text: Held }).loose()

/** The computer tool's input by action (both tool versions; zoom only where enabled). */
export const COMPUTER_ACTIONS = {
  key: z.object({ text: z.string().min(1) }).loose(),
  hold_key: z.object({ text: z.string().min(1), duration: z.number().positive().max(60) }).loose(),
  type: z.object({ text: z.string() }).loose(),
  mouse_move: z.object({ coordinate: Coordinate }).loose(),
  left_click: Click,
  right_click: Click,
  middle_click: Click,
  double_click: Click,
  triple_click: Click,
  left_click_drag: z.object({ start_coordinate: Coordinate.optional(), coordinate: Coordinate }).loose(),
  left_mouse_down: z.object({ coordinate: Coordinate.optional() }).loose(),
  left_mouse_up: z.object({ coordinate: Coordinate.optional() }).loose(),
  scroll: z
    .object({
      coordinate: Coordinate.optional(),
      scroll_direction: z.enum(['up', 'down', 'left', 'right']),
      scroll_amount: z.number().int().min(0).max(100),
      text: Held,
    })
    .loose(),
  wait: z.object({ duration: z.number().min(0).max(100).default(1) }).loose(),
  screenshot: z.object({}).loose(),
  cursor_position: z.object({}).loose(),
  zoom: z.object({ region: z.tuple([z.number(), z.number(), z.number(), z.number()]) }).loose(),
} as const
export type ComputerToolAction = keyof typeof COMPUTER_ACTIONS

type Point = { x: number; y: number }

/** What one tool call asks for: steps on the computer (in screenshot pixels), or an observation. */
export type Plan =
  | { kind: 'steps'; steps: ComputerActionInput[] }
  | { kind: 'screenshot' }
  | { kind: 'cursor_position' }
  | { kind: 'zoom'; region: [number, number, number, number] }

export type Parsed = { ok: true; plan: Plan } | { ok: false; error: string }

/**
 * Reads a computer tool input into a plan. `pointer` is where the pointer is now (screenshot
 * pixels), for the actions whose coordinate is optional. Keys follow xdotool's syntax ("ctrl+s",
 * "Return", "KP_0"); space-separated chords are pressed one after another, as xdotool does.
 */
export function planComputerAction(input: unknown, pointer: () => Promise<Point>, zoom: boolean): Promise<Parsed> {
  return plan(input, pointer, zoom).catch((error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : String(error) }))
}

async function plan(input: unknown, pointer: () => Promise<Point>, zoom: boolean): Promise<Parsed> {
  const action = (input as { action?: unknown } | null)?.action
  if (typeof action !== 'string' || !(action in COMPUTER_ACTIONS) || (action === 'zoom' && !zoom)) {
    const known = Object.keys(COMPUTER_ACTIONS).filter((name) => zoom || name !== 'zoom')
    return { ok: false, error: `unknown action ${JSON.stringify(action)} (the computer tool knows: ${known.join(', ')})` }
  }
  const parsed = COMPUTER_ACTIONS[action as ComputerToolAction].safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return { ok: false, error: `${action}.${issue.path.join('.') || 'input'}: ${issue.message}` }
  }
  const at = async (coordinate: [number, number] | undefined): Promise<Point> => (coordinate ? point(coordinate) : pointer())
  const steps = (...list: ComputerActionInput[]): Parsed => ({ ok: true, plan: { kind: 'steps', steps: list } })
  const data = parsed.data as Record<string, unknown>
  switch (action as ComputerToolAction) {
    case 'key':
      return steps(...chords(data.text as string).map((keys) => ({ type: 'keypress' as const, keys })))
    case 'hold_key':
      return steps({ type: 'hold_key', keys: chord(data.text as string), ms: Math.round((data.duration as number) * 1000) })
    case 'type':
      return steps({ type: 'type', text: data.text as string })
    case 'mouse_move':
      return steps({ type: 'move', ...point(data.coordinate as [number, number]) })
    case 'left_click':
    case 'right_click':
    case 'middle_click': {
      const button = action === 'left_click' ? 'left' : action === 'right_click' ? 'right' : 'middle'
      return steps({ type: 'click', ...(await at(data.coordinate as [number, number] | undefined)), button, ...held(data.text) })
    }
    case 'double_click':
      return steps({ type: 'double_click', ...(await at(data.coordinate as [number, number] | undefined)), ...held(data.text) })
    case 'triple_click':
      return steps({ type: 'triple_click', ...(await at(data.coordinate as [number, number] | undefined)), ...held(data.text) })
    case 'left_click_drag': {
      const from = await at(data.start_coordinate as [number, number] | undefined)
      return steps({ type: 'drag', path: [from, point(data.coordinate as [number, number])] })
    }
    case 'left_mouse_down':
    case 'left_mouse_up': {
      const press = { type: action === 'left_mouse_down' ? ('mouse_down' as const) : ('mouse_up' as const), button: 'left' as const }
      // A coordinate means: go there first (its own step, as a person's hand moves before it presses).
      return data.coordinate ? steps({ type: 'move', ...point(data.coordinate as [number, number]) }, press) : steps(press)
    }
    case 'scroll':
      return steps({ type: 'scroll', ...(await at(data.coordinate as [number, number] | undefined)), ...wheel(data), ...held(data.text) })
    case 'wait':
      return steps({ type: 'wait', ms: Math.round((data.duration as number) * 1000) })
    case 'screenshot':
      return { ok: true, plan: { kind: 'screenshot' } }
    case 'cursor_position':
      return { ok: true, plan: { kind: 'cursor_position' } }
    case 'zoom':
      return { ok: true, plan: { kind: 'zoom', region: data.region as [number, number, number, number] } }
  }
}

function point([x, y]: [number, number]): Point {
  return { x: Math.round(x), y: Math.round(y) }
}

/** scroll_x/scroll_y in scroll units (the caller multiplies by the unit's pixels). */
function wheel(data: Record<string, unknown>): { scroll_x: number; scroll_y: number } {
  const amount = data.scroll_amount as number
  switch (data.scroll_direction) {
    case 'up':
      return { scroll_x: 0, scroll_y: -amount }
    case 'down':
      return { scroll_x: 0, scroll_y: amount }
    case 'left':
      return { scroll_x: -amount, scroll_y: 0 }
    default:
      return { scroll_x: amount, scroll_y: 0 }
  }
}

function held(text: unknown): { keys?: string[] } {
  return typeof text === 'string' && text.trim() ? { keys: chord(text) } : {}
}

/** "ctrl+shift+t" -> ["Control", "Shift", "t"]; a lone "+" is the plus key. */
export function chord(text: string): string[] {
  const trimmed = text.trim()
  const parts = trimmed === '+' ? ['+'] : trimmed.split(/\+(?!$)/).map((part) => (part === '' ? '+' : part))
  return parts.map((part) => canonicalKey(part))
}

/** Space-separated chords, pressed in turn ("ctrl+a Delete"). */
export function chords(text: string): string[][] {
  const list = text.trim().split(/\s+/).filter(Boolean)
  if (list.length === 0) throw new Error('key.text: no key named')
  return list.map(chord)
}
