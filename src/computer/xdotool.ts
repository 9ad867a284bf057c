import type { HoldableButton, MouseButton, Point } from '../schema/action.ts'
import type { Computer } from './computer.ts'
import { toXKeysym } from './x-keys.ts'

/** Runs a command in the sandbox (no shell) and returns its stdout; throws on failure. */
export type RunInSandbox = (command: string[]) => Promise<Buffer>

/** X button numbers: 4/5 scroll up/down, 6/7 left/right. */
const BUTTONS: Record<MouseButton, string> = { left: '1', middle: '2', wheel: '2', right: '3', back: '8', forward: '9' }

/** How long an app gets to take an action before anything else happens on its screen. */
export const SETTLE_MS = 250

/** Pixels one wheel click scrolls in GTK apps; a CUA scroll in pixels becomes that many clicks. */
export const PIXELS_PER_WHEEL_CLICK = 50

/**
 * The Computer over an X display in a container: xdotool for input, ImageMagick for
 * screenshots. Commands go as argument lists, never through a shell, so typed text needs no
 * escaping.
 */
export class XdotoolComputer implements Computer {
  readonly environment = 'linux' as const

  constructor(
    private readonly run: RunInSandbox,
    readonly dimensions = { width: 1280, height: 800 },
  ) {}

  async screenshot(): Promise<Buffer> {
    // -quality 21: zlib level 2 and one filter ("sub") instead of 7 and trying all five per row.
    // On an office screen: 48 ms of CPU against 80, for a PNG a third larger (86 KB against 63).
    return this.run(['import', '-window', 'root', '-quality', '21', 'png:-'])
  }

  async click(x: number, y: number, button: MouseButton = 'left', keys?: string[]): Promise<void> {
    await this.xdotool(...holding(keys, ['mousemove', String(x), String(y), 'click', BUTTONS[button]]))
  }

  async doubleClick(x: number, y: number, keys?: string[]): Promise<void> {
    await this.xdotool(...holding(keys, ['mousemove', String(x), String(y), 'click', '--repeat', '2', '--delay', '80', '1']))
  }

  async tripleClick(x: number, y: number, keys?: string[]): Promise<void> {
    await this.xdotool(...holding(keys, ['mousemove', String(x), String(y), 'click', '--repeat', '3', '--delay', '80', '1']))
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number, keys?: string[]): Promise<void> {
    const args = ['mousemove', String(x), String(y)]
    const clicks = (pixels: number) => Math.min(50, Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_WHEEL_CLICK)))
    if (scrollY !== 0) args.push('click', '--repeat', String(clicks(scrollY)), '--delay', '20', scrollY < 0 ? '4' : '5')
    if (scrollX !== 0) args.push('click', '--repeat', String(clicks(scrollX)), '--delay', '20', scrollX < 0 ? '6' : '7')
    await this.xdotool(...holding(keys, args))
  }

  async mouseDown(button: HoldableButton = 'left'): Promise<void> {
    await this.xdotool('mousedown', BUTTONS[button])
  }

  async mouseUp(button: HoldableButton = 'left'): Promise<void> {
    await this.xdotool('mouseup', BUTTONS[button])
  }

  /** One xdotool command: the keys go down, xdotool's own sleep holds them, then they come up. */
  async holdKey(keys: string[], ms: number): Promise<void> {
    const keysyms = keys.map(toXKeysym)
    await this.xdotool('keydown', ...keysyms, 'sleep', (ms / 1000).toFixed(3), 'keyup', ...[...keysyms].reverse())
  }

  async cursorPosition(): Promise<Point> {
    const shell = (await this.run(['xdotool', 'getmouselocation', '--shell'])).toString('utf8')
    const read = (name: string) => Number(new RegExp(`^${name}=(-?\\d+)$`, 'm').exec(shell)?.[1] ?? Number.NaN)
    const point = { x: read('X'), y: read('Y') }
    if (!Number.isInteger(point.x) || !Number.isInteger(point.y)) throw new Error(`xdotool getmouselocation said: ${shell.trim()}`)
    return point
  }

  async type(text: string): Promise<void> {
    // Lines go one at a time with Return between, which every app reads as Enter.
    const lines = text.split('\n')
    const paced = lines.some((line) => repeatFreeRuns(line).length > 1) && PACED_APPS.includes((await this.focusedApp()) ?? '')
    for (const [i, line] of lines.entries()) {
      for (const [j, run] of (paced ? repeatFreeRuns(line) : [line]).entries()) {
        if (j > 0) await new Promise((resolve) => setTimeout(resolve, REPEATED_KEY_PAUSE_MS))
        await this.xdotool('type', '--delay', '8', '--', run)
      }
      if (i < lines.length - 1) await this.xdotool('key', 'Return')
    }
  }

  /** The program whose window has the focus (its /proc comm), or null when none can be told. */
  private async focusedApp(): Promise<string | null> {
    const shown = await this.run(['sh', '-c', 'cat "/proc/$(xdotool getactivewindow getwindowpid 2>/dev/null)/comm" 2>/dev/null; exit 0']).catch(() => null)
    return shown?.toString('utf8').trim() || null
  }

  async wait(ms = 1000): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms))
  }

  async move(x: number, y: number): Promise<void> {
    await this.xdotool('mousemove', String(x), String(y))
  }

  /** All keys as one chord (`ctrl+shift+t`), the way xdotool presses them together. */
  async keypress(keys: string[]): Promise<void> {
    await this.xdotool('key', '--clearmodifiers', keys.map(toXKeysym).join('+'))
  }

  async drag(path: Point[]): Promise<void> {
    const [first, ...rest] = path
    if (!first) return
    const args = ['mousemove', String(first.x), String(first.y), 'mousedown', '1']
    for (const point of rest) args.push('mousemove', String(point.x), String(point.y))
    args.push('mouseup', '1')
    await this.xdotool(...args)
  }

  async currentUrl(): Promise<null> {
    return null
  }

  private async xdotool(...args: string[]): Promise<void> {
    await this.run(['xdotool', ...args])
    // xdotool returns once X has the input, before the app has read it: give the app a moment
    // before the step's screenshot and the next action. A plain exec per command once added about
    // 50 ms on each side of this wait; through the command channel it adds nothing, and with the
    // wait at 120 ms a spreadsheet replay typed into a cell before the app had moved to it.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
  }
}

/** An xdotool command chain with modifier keys held around it (xdotool takes several keys per keydown). */
function holding(keys: string[] | undefined, args: string[]): string[] {
  if (!keys?.length) return args
  const keysyms = keys.map(toXKeysym)
  return ['keydown', ...keysyms, ...args, 'keyup', ...[...keysyms].reverse()]
}

/**
 * How long a key pressed again waits after its last press. galculator ignores a key pressed again
 * within about 0.1 s of itself, even with other keys between: xdotool's `type 7006652` left 70652
 * on its display at any --delay up to 100 ms, and `121` left 12. Keys must land as typed in
 * every app.
 */
const REPEATED_KEY_PAUSE_MS = 200

/** The bundled apps that drop a key pressed again that soon: typing into them waits before a repeated key. */
const PACED_APPS = ['galculator']

/** `7006652` -> `70`, `06`, `652`; `121` -> `12`, `1`: runs in which no character comes twice. */
export function repeatFreeRuns(line: string): string[] {
  const runs: string[] = []
  let current: string[] = []
  for (const char of line) {
    if (current.includes(char)) {
      runs.push(current.join(''))
      current = []
    }
    current.push(char)
  }
  if (current.length) runs.push(current.join(''))
  return runs
}
