import type { ComputerAction, HoldableButton, MouseButton, Point } from '../schema/action.ts'

export type Environment = 'browser' | 'linux' | 'windows' | 'mac'

/**
 * What an agent acts through. The methods mirror the OpenAI computer-use sample app's Computer
 * protocol; coordinates are pixels of `dimensions`. Screenshots are PNG bytes.
 */
export interface Computer {
  readonly environment: Environment
  readonly dimensions: { width: number; height: number }
  screenshot(): Promise<Buffer>
  /** `keys`: modifiers held down during the click (shift-click), in keypress's names. */
  click(x: number, y: number, button?: MouseButton, keys?: string[]): Promise<void>
  doubleClick(x: number, y: number, keys?: string[]): Promise<void>
  tripleClick(x: number, y: number, keys?: string[]): Promise<void>
  scroll(x: number, y: number, scrollX: number, scrollY: number, keys?: string[]): Promise<void>
  /** Press or release a button where the pointer is. */
  mouseDown(button?: HoldableButton): Promise<void>
  mouseUp(button?: HoldableButton): Promise<void>
  type(text: string): Promise<void>
  wait(ms?: number): Promise<void>
  move(x: number, y: number): Promise<void>
  keypress(keys: string[]): Promise<void>
  /** Hold keys down together for `ms`, then release them. */
  holdKey(keys: string[], ms: number): Promise<void>
  drag(path: Point[]): Promise<void>
  /** Where the pointer is now; an observation, not a step. */
  cursorPosition(): Promise<Point>
  /** The page's URL in a browser; null where there is none (a desktop). */
  currentUrl(): Promise<string | null>
  /** The page's accessibility tree as text (a browser only); an observation, not a step. */
  accessibilityTree?(): Promise<string>
  goto?(url: string): Promise<void>
  back?(): Promise<void>
  forward?(): Promise<void>
}

/** Runs one validated action on a computer (the `screenshot` action only takes one). */
export async function performAction(computer: Computer, action: ComputerAction): Promise<void> {
  switch (action.type) {
    case 'click':
      return computer.click(action.x, action.y, action.button, action.keys)
    case 'double_click':
      return computer.doubleClick(action.x, action.y, action.keys)
    case 'triple_click':
      return computer.tripleClick(action.x, action.y, action.keys)
    case 'scroll':
      return computer.scroll(action.x, action.y, action.scroll_x, action.scroll_y, action.keys)
    case 'mouse_down':
      return computer.mouseDown(action.button)
    case 'mouse_up':
      return computer.mouseUp(action.button)
    case 'hold_key':
      return computer.holdKey(action.keys, action.ms)
    case 'type':
      return computer.type(action.text)
    case 'wait':
      return computer.wait(action.ms)
    case 'move':
      return computer.move(action.x, action.y)
    case 'keypress':
      return computer.keypress(action.keys)
    case 'drag':
      return computer.drag(action.path)
    case 'screenshot':
      await computer.screenshot()
      return
    case 'goto':
      return requireExtra(computer, 'goto')(action.url)
    case 'back':
      return requireExtra(computer, 'back')()
    case 'forward':
      return requireExtra(computer, 'forward')()
  }
}

function requireExtra<K extends 'goto' | 'back' | 'forward'>(computer: Computer, name: K): NonNullable<Computer[K]> {
  const method = computer[name]
  if (!method) throw new Error(`the ${computer.environment} computer has no "${name}" action`)
  return method.bind(computer) as NonNullable<Computer[K]>
}

/** A short human-readable form of an action, for logs and the Vitest UI. */
export function describeAction(action: ComputerAction | { type: 'message'; text: string }): string {
  switch (action.type) {
    case 'click': {
      const what = action.button === 'left' ? 'click' : `${action.button} click`
      return `${held(action.keys)}${what} (${action.x}, ${action.y})`
    }
    case 'double_click':
      return `${held(action.keys)}double-click (${action.x}, ${action.y})`
    case 'triple_click':
      return `${held(action.keys)}triple-click (${action.x}, ${action.y})`
    case 'scroll':
      return `${held(action.keys)}scroll (${action.scroll_x}, ${action.scroll_y}) at (${action.x}, ${action.y})`
    case 'mouse_down':
      return `press the ${action.button} button`
    case 'mouse_up':
      return `release the ${action.button} button`
    case 'hold_key':
      return `hold ${action.keys.join('+')} for ${action.ms} ms`
    case 'type':
      return `type ${JSON.stringify(truncate(action.text, 60))}`
    case 'wait':
      return `wait ${action.ms} ms`
    case 'move':
      return `move to (${action.x}, ${action.y})`
    case 'keypress':
      return `press ${action.keys.join('+')}`
    case 'drag':
      return `drag ${action.path.map((p) => `(${p.x}, ${p.y})`).join(' → ')}`
    case 'screenshot':
      return 'screenshot'
    case 'goto':
      return `go to ${action.url}`
    case 'back':
      return 'back'
    case 'forward':
      return 'forward'
    case 'message':
      return `say ${JSON.stringify(truncate(action.text, 80))}`
  }
}

/** "shift+" before a click made with shift held. */
function held(keys: string[] | undefined): string {
  return keys?.length ? `${keys.join('+')}+` : ''
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
