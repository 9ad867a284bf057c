/**
 * P1's bare side: the recorded Omnizon trajectories replayed with plain Playwright, no harness.
 * It takes a ReplayPlan (what the harness's run recorded: seed, start page, actions, the URL
 * after each step, the /finish diff), starts Omnizon in this process, and for each task, one at
 * a time: a fresh context at the same viewport, /config, each action, a wait for the step's URL,
 * one PNG per step, then /finish, whose diff must equal the recorded one.
 *
 * Nothing here imports the harness (src/): only Playwright, zod and the Omnizon server.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright'
import { z } from 'zod'
import { startOmnizon } from '../../fixtures/apps/omnizon/index.ts'

const Int = z.number().int()
const Keys = z.array(z.string().min(1)).min(1)

/** The recorded actions a replay can do: the computer actions Omnizon trajectories hold. */
export const ReplayAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('click'), x: Int, y: Int, button: z.enum(['left', 'right', 'middle', 'back', 'forward', 'wheel']).default('left'), keys: Keys.optional() }),
  z.object({ type: z.literal('double_click'), x: Int, y: Int, keys: Keys.optional() }),
  z.object({ type: z.literal('triple_click'), x: Int, y: Int, keys: Keys.optional() }),
  z.object({ type: z.literal('scroll'), x: Int, y: Int, scroll_x: Int, scroll_y: Int, keys: Keys.optional() }),
  z.object({ type: z.literal('type'), text: z.string() }),
  z.object({ type: z.literal('keypress'), keys: Keys }),
  z.object({ type: z.literal('wait'), ms: Int.nonnegative() }),
  z.object({ type: z.literal('move'), x: Int, y: Int }),
  z.object({ type: z.literal('drag'), path: z.array(z.object({ x: Int, y: Int })).min(2) }),
  z.object({ type: z.literal('screenshot') }),
  z.object({ type: z.literal('goto'), url: z.string().min(1) }),
  z.object({ type: z.literal('back') }),
  z.object({ type: z.literal('forward') }),
])
export type ReplayAction = z.infer<typeof ReplayAction>

export const ReplayTask = z.object({
  id: z.string().min(1),
  /** Omnizon's /config parameters, as the harness sent them. */
  seed: z.string().min(1),
  remove_popup: z.boolean(),
  /** Path (and query) of the first page, relative to Omnizon's origin. */
  start_path: z.string().startsWith('/'),
  /** Each computer step: its action and the page it ended on (path and query, no origin). */
  steps: z.array(z.object({ action: ReplayAction, path: z.string().startsWith('/') })),
  /** The recorded /finish diff: the end state the replay must reach. */
  diff: z.array(z.unknown()),
})
export type ReplayTask = z.infer<typeof ReplayTask>

export const ReplayPlan = z.object({
  viewport: z.object({ width: Int.positive(), height: Int.positive() }),
  /** The browser the harness found, launched as it launches it. */
  executable_path: z.string().min(1),
  headless: z.boolean(),
  chromium_args: z.array(z.string()),
  tasks: z.array(ReplayTask).min(1),
})
export type ReplayPlan = z.infer<typeof ReplayPlan>

export interface BareReplayOptions {
  /** Where the step PNGs go (a folder per task). */
  screenshotDir: string
  /** Drops each task's last action: a deliberately broken replay, to show the check can fail. */
  dropLastAction?: boolean
}

export interface BareReplayResult {
  /** Wall time: browser launch, Omnizon start, every task, shutdown. */
  seconds: number
  /** Per task, in seconds (context to /finish). */
  tasks: Record<string, number>
  screenshots: number
  problems: string[]
}

/** How long one step's page may take to reach its recorded URL. */
const STEP_TIMEOUT_MS = 15_000

/** CUA key names to Playwright's, the ones a model or a solution may send. */
const KEY_NAMES: Record<string, string> = {
  ctrl: 'Control', control: 'Control', alt: 'Alt', option: 'Alt', shift: 'Shift', cmd: 'Meta', command: 'Meta', meta: 'Meta',
  super: 'Meta', win: 'Meta', enter: 'Enter', return: 'Enter', tab: 'Tab', esc: 'Escape', escape: 'Escape', space: ' ',
  backspace: 'Backspace', delete: 'Delete', del: 'Delete', home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown',
  up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
}
const key = (name: string) => KEY_NAMES[name.toLowerCase()] ?? name

export async function replayBare(input: ReplayPlan, options: BareReplayOptions): Promise<BareReplayResult> {
  const plan = ReplayPlan.parse(input)
  const started = performance.now()
  const problems: string[] = []
  const tasks: Record<string, number> = {}
  let screenshots = 0
  const [server, browser] = await Promise.all([
    startOmnizon(),
    chromium.launch({ executablePath: plan.executable_path, headless: plan.headless, args: plan.chromium_args }),
  ])
  try {
    for (const task of plan.tasks) {
      const taskStarted = performance.now()
      try {
        screenshots += await replayTask(browser, server.url, plan.viewport, task, options)
      } catch (error) {
        problems.push(`${task.id}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
      }
      tasks[task.id] = (performance.now() - taskStarted) / 1000
    }
  } finally {
    await browser.close()
    await server.close()
  }
  return { seconds: (performance.now() - started) / 1000, tasks, screenshots, problems }
}

/** One task in its own context; returns the screenshots taken, throws on a different end state. */
async function replayTask(browser: Browser, origin: string, viewport: ReplayPlan['viewport'], task: ReplayTask, options: BareReplayOptions): Promise<number> {
  const context = await browser.newContext({ viewport })
  try {
    const query = new URLSearchParams({ task_id: task.id, run_id: 'bare', seed: task.seed, remove_popup: String(task.remove_popup) })
    const configured = await context.request.get(`${origin}/config?${query}`)
    if (!configured.ok()) throw new Error(`/config answered ${configured.status()}`)
    let page = await context.newPage()
    // A link that opens a tab moves the replay there, as a person's eyes would follow.
    context.on('page', (opened) => (page = opened))
    await page.goto(new URL(task.start_path, origin).href, { waitUntil: 'load' })
    const dir = join(options.screenshotDir, task.id)
    mkdirSync(dir, { recursive: true })
    const steps = options.dropLastAction ? task.steps.slice(0, -1) : task.steps
    for (const [i, step] of steps.entries()) {
      await perform(page, step.action, origin)
      const expected = new URL(step.path, origin).href
      try {
        await page.waitForURL((url) => url.href === expected, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS })
      } catch {
        throw new Error(`step ${i + 1} (${step.action.type}) ended on ${page.url()}, recorded ${expected}`)
      }
      await page.screenshot({ path: join(dir, `step-${String(i + 1).padStart(3, '0')}.png`), type: 'png' })
    }
    const finished = await context.request.get(`${origin}/finish`)
    const body: unknown = await finished.json()
    const diff = z.object({ diff: z.array(z.unknown()) }).parse(body).diff
    if (!isDeepStrictEqual(diff, task.diff)) throw new Error(`/finish diff differs from the harness's: ${describeDiff(task.diff, diff)}`)
    return steps.length
  } finally {
    await context.close()
  }
}

async function perform(page: Page, action: ReplayAction, origin: string): Promise<void> {
  const { mouse, keyboard } = page
  const held = async (keys: string[] | undefined, act: () => Promise<unknown>) => {
    const names = (keys ?? []).map(key)
    for (const name of names) await keyboard.down(name)
    try {
      await act()
    } finally {
      for (const name of names.reverse()) await keyboard.up(name)
    }
  }
  switch (action.type) {
    case 'click':
    {
      const { button } = action
      if (button === 'back') return void (await page.goBack())
      if (button === 'forward') return void (await page.goForward())
      return held(action.keys, () => mouse.click(action.x, action.y, { button: button === 'wheel' ? 'middle' : button }))
    }
    case 'double_click':
      return held(action.keys, () => mouse.dblclick(action.x, action.y))
    case 'triple_click':
      return held(action.keys, () => mouse.click(action.x, action.y, { clickCount: 3 }))
    case 'scroll':
      await mouse.move(action.x, action.y)
      return held(action.keys, () => mouse.wheel(action.scroll_x, action.scroll_y))
    case 'type':
      return keyboard.type(action.text)
    case 'keypress': {
      const names = action.keys.map(key)
      for (const name of names) await keyboard.down(name)
      for (const name of names.reverse()) await keyboard.up(name)
      return
    }
    case 'wait':
      return page.waitForTimeout(action.ms)
    case 'move':
      return mouse.move(action.x, action.y)
    case 'drag': {
      const [first, ...rest] = action.path
      await mouse.move(first!.x, first!.y)
      await mouse.down()
      for (const point of rest) await mouse.move(point.x, point.y, { steps: 4 })
      return mouse.up()
    }
    case 'screenshot':
      return
    case 'goto':
      return void (await page.goto(new URL(action.url, origin).href, { waitUntil: 'load' }))
    case 'back':
      return void (await page.goBack({ waitUntil: 'load' }))
    case 'forward':
      return void (await page.goForward({ waitUntil: 'load' }))
  }
}

/** The first difference between two diffs, in a line. */
function describeDiff(expected: unknown[], actual: unknown[]): string {
  const at = expected.findIndex((entry, i) => !isDeepStrictEqual(entry, actual[i]))
  const index = at < 0 ? expected.length : at
  const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 160))
  return `${expected.length} entries recorded, ${actual.length} now; entry ${index}: recorded ${show(expected[index])}, now ${show(actual[index])}`
}
