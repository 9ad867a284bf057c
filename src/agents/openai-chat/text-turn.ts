import type { Computer } from '../../computer/computer.ts'
import type { ComputerActionInput } from '../../schema/action.ts'
import { act, checkAction } from '../shared/act.ts'
import type { UrlBlocklist } from '../shared/blocklist.ts'
import type { ScreenScale } from '../shared/image.ts'
import type { ModelCoordinates } from './coordinates.ts'
import { parseTextActions, textActionSpace, type ModelPoint, type TextAction } from './text-actions.ts'

/** A scroll without a distance (UI-TARS gives a direction only) moves this many screen pixels. */
const SCROLL_PIXELS = 400
const WAIT_MS = 1_000

export type TextTurn = { answer: string } | { error: string } | { acted: true }

/** The output format and action space for a model that answers in text (action_format: ui-tars). */
export function textInstructions(computer: Computer): string {
  return [
    'Answer in this format, one action per reply:',
    'Thought: what you see and what you do next',
    'Action: one of the actions below',
    '',
    'Actions:',
    textActionSpace(computer.environment === 'browser'),
  ].join('\n')
}

/**
 * Runs one text reply: each action is mapped to screen pixels, checked and performed in order;
 * `finished` ends the task with its content as the answer.
 */
export async function runTextTurn(
  content: string,
  context: { computer: Computer; coordinates: ModelCoordinates; screenPixels: ScreenScale; blocklist: UrlBlocklist; think(text: string): void },
): Promise<TextTurn> {
  const parsed = parseTextActions(content)
  if (parsed.thought) context.think(parsed.thought)
  if (!parsed.ok) return { error: parsed.error }
  for (const action of parsed.actions) {
    if (action.kind === 'finished') return { answer: action.answer }
    if (action.kind === 'call_user') throw new Error('the model called call_user(): it asked for help, and an agent here acts on its own')
    for (const step of toComputerActions(action, context.coordinates)) {
      const checked = await checkAction(step, context.screenPixels, context.computer)
      if (!checked.ok) return { error: checked.error }
      await act(context.computer, checked.action, context.blocklist)
    }
  }
  return { acted: true }
}

function toComputerActions(action: Exclude<TextAction, { kind: 'finished' | 'call_user' }>, coordinates: ModelCoordinates): ComputerActionInput[] {
  const screen = (p: ModelPoint) => ({ x: coordinates.point(p.x, 'x'), y: coordinates.point(p.y, 'y') })
  switch (action.kind) {
    case 'click':
      return [{ type: 'click', ...screen(action.at), button: action.button }]
    case 'double_click':
      return [{ type: 'double_click', ...screen(action.at) }]
    case 'drag':
      return [{ type: 'drag', path: [screen(action.from), screen(action.to)] }]
    case 'keypress':
      return [{ type: 'keypress', keys: action.keys }]
    case 'type':
      return [{ type: 'type', text: action.text }, ...(action.submit ? [{ type: 'keypress' as const, keys: ['Enter'] }] : [])]
    case 'scroll': {
      const sign = action.direction === 'down' || action.direction === 'right' ? 1 : -1
      const vertical = action.direction === 'up' || action.direction === 'down'
      return [{ type: 'scroll', ...screen(action.at), scroll_x: vertical ? 0 : sign * SCROLL_PIXELS, scroll_y: vertical ? sign * SCROLL_PIXELS : 0 }]
    }
    case 'wait':
      return [{ type: 'wait', ms: WAIT_MS }]
    case 'goto':
      return [{ type: 'goto', url: action.url }]
    case 'back':
      return [{ type: 'back' }]
  }
}
