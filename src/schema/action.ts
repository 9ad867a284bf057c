import { z } from 'zod'

/** A screen coordinate in CSS pixels of the sandbox's display. */
export const Point = z.object({ x: z.number().int(), y: z.number().int() })
export type Point = z.infer<typeof Point>

export const MouseButton = z.enum(['left', 'right', 'middle', 'back', 'forward', 'wheel'])
export type MouseButton = z.infer<typeof MouseButton>

/** A button that can be held down (and released) on its own. */
export const HoldableButton = z.enum(['left', 'right', 'middle'])
export type HoldableButton = z.infer<typeof HoldableButton>

/** Modifier keys held while a click or scroll happens (shift-click, ctrl+wheel). */
const HeldKeys = z.array(z.string().min(1)).min(1).optional()

/**
 * One action on a Computer. Names and fields follow the OpenAI computer-use action shapes
 * (click, double_click, scroll, type, wait, move, keypress, drag), so a model's action can be
 * validated and dispatched as-is. triple_click, mouse_down/mouse_up, hold_key and held `keys`
 * cover what Claude's computer tool adds; goto/back/forward are browser-only extras.
 */
export const ComputerAction = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('click'),
    x: z.number().int(),
    y: z.number().int(),
    button: MouseButton.default('left'),
    keys: HeldKeys,
  }),
  z.object({ type: z.literal('double_click'), x: z.number().int(), y: z.number().int(), keys: HeldKeys }),
  z.object({ type: z.literal('triple_click'), x: z.number().int(), y: z.number().int(), keys: HeldKeys }),
  z.object({
    type: z.literal('scroll'),
    x: z.number().int(),
    y: z.number().int(),
    scroll_x: z.number().int(),
    scroll_y: z.number().int(),
    keys: HeldKeys,
  }),
  /** Press or release a button where the pointer is (a drag taken apart). */
  z.object({ type: z.literal('mouse_down'), button: HoldableButton.default('left') }),
  z.object({ type: z.literal('mouse_up'), button: HoldableButton.default('left') }),
  /** Hold keys down together for a while, then release them. */
  z.object({ type: z.literal('hold_key'), keys: z.array(z.string().min(1)).min(1), ms: z.number().int().nonnegative().max(60_000) }),
  z.object({ type: z.literal('type'), text: z.string() }),
  z.object({ type: z.literal('wait'), ms: z.number().int().nonnegative().default(1000) }),
  z.object({ type: z.literal('move'), x: z.number().int(), y: z.number().int() }),
  z.object({ type: z.literal('keypress'), keys: z.array(z.string().min(1)).min(1) }),
  z.object({ type: z.literal('drag'), path: z.array(Point).min(2) }),
  z.object({ type: z.literal('screenshot') }),
  z.object({ type: z.literal('goto'), url: z.string().min(1) }),
  z.object({ type: z.literal('back') }),
  z.object({ type: z.literal('forward') }),
])
export type ComputerAction = z.infer<typeof ComputerAction>
export type ComputerActionInput = z.input<typeof ComputerAction>

/** A non-computer step: the agent said something (its final answer, or a message on the way). */
export const MessageAction = z.object({ type: z.literal('message'), text: z.string() })
export type MessageAction = z.infer<typeof MessageAction>

export const StepAction = z.union([ComputerAction, MessageAction])
export type StepAction = z.infer<typeof StepAction>
