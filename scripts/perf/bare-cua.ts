/**
 * The bare counterpart of a computer-use run: plain Playwright and the `openai` SDK in one Node
 * process, no agentest. N async loops share one Chromium, each task in its own browser context:
 * reset the shop's session (/config), open the start page, then screenshot → model → action →
 * screenshot until the model answers, and read /finish to compare with the recorded end state.
 *
 *   node --import tsx scripts/perf/bare-cua.ts <input.json>    (prints one BareOutput JSON line)
 *
 * It starts Omnizon as the harness's global setup does (the same server module) and imports
 * nothing from src/: the comparison is with what a person would write without the harness.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import OpenAI from 'openai'
import { chromium, type BrowserContext, type Page } from 'playwright'
import { z } from 'zod'
import { startOmnizon } from '../../fixtures/apps/omnizon/index.ts'
import { BareInput, type BareOutput, type BareResult, type BareTask } from './bare-cua-protocol.ts'

/** CUA key names → Playwright's. */
const KEYS: Record<string, string> = { ctrl: 'Control', control: 'Control', alt: 'Alt', shift: 'Shift', cmd: 'Meta', meta: 'Meta', enter: 'Enter', return: 'Enter', esc: 'Escape', escape: 'Escape', tab: 'Tab', backspace: 'Backspace', space: ' ' }
const key = (name: string) => KEYS[name.toLowerCase()] ?? name

/** Marks a document as being left (a submitted form, beforeunload) before the browser asks for the next one. */
function markLeaving(): void {
  const flag = window as unknown as { __leaving?: boolean }
  window.addEventListener('submit', (event) => {
    if (!event.defaultPrevented) flag.__leaving = true
  })
  window.addEventListener('beforeunload', () => {
    flag.__leaving = true
  })
}

const INSTRUCTIONS = 'You are operating a web browser to complete a task for a user. When the task is done, reply with your final answer.'

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

/** The page and whether a main-frame navigation is under way, so each screenshot shows an action's effect. */
class Tab {
  private navigating = false
  private started = 0

  constructor(readonly page: Page) {
    page.on('request', (request) => {
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return
      this.navigating = true
      this.started++
    })
    page.on('load', () => (this.navigating = false))
    page.on('requestfailed', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.navigating = false
    })
  }

  /** Runs an action, then waits for a navigation it started (a loaded machine may start it late). */
  async act(action: () => Promise<unknown>): Promise<void> {
    const before = this.started
    await action()
    await sleep(50)
    if (!this.navigating) {
      const leaving = await this.page.evaluate(() => (window as unknown as { __leaving?: boolean }).__leaving === true).catch(() => true)
      if (!leaving) return
      await this.until(() => this.started > before, 3_000)
      await this.page.evaluate(() => ((window as unknown as { __leaving?: boolean }).__leaving = false)).catch(() => undefined)
    }
    await this.until(() => !this.navigating, 15_000)
  }

  private async until(done: () => boolean, ms: number): Promise<void> {
    const deadline = Date.now() + ms
    while (!done() && Date.now() < deadline) await sleep(25)
  }
}

const Action = z.object({ type: z.string() }).loose()
type Action = z.infer<typeof Action>
const num = (value: unknown) => z.number().parse(value)

async function perform(tab: Tab, action: Action): Promise<void> {
  const { page } = tab
  switch (action.type) {
    case 'click': {
      const button = action.button === 'right' ? 'right' : action.button === 'wheel' ? 'middle' : 'left'
      return tab.act(() => page.mouse.click(num(action.x), num(action.y), { button }))
    }
    case 'double_click':
      return tab.act(() => page.mouse.dblclick(num(action.x), num(action.y)))
    case 'scroll':
      await page.mouse.move(num(action.x), num(action.y))
      await page.mouse.wheel(num(action.scroll_x), num(action.scroll_y))
      return sleep(100)
    case 'type':
      return tab.act(() => page.keyboard.type(z.string().parse(action.text)))
    case 'keypress': {
      const keys = z.array(z.string()).parse(action.keys).map(key)
      return tab.act(async () => {
        for (const k of keys) await page.keyboard.down(k)
        for (const k of [...keys].reverse()) await page.keyboard.up(k)
      })
    }
    case 'move':
      return page.mouse.move(num(action.x), num(action.y))
    case 'wait':
      return sleep(1000)
    default:
      throw new Error(`unsupported action ${action.type}`)
  }
}

const Item = z.object({ type: z.string() }).loose()
const Response = z.object({ output: z.array(Item) }).loose()

/** One task, start to verified end state. */
async function runTask(task: BareTask, input: BareInput, context: BrowserContext, shop: string, client: OpenAI): Promise<BareResult> {
  const started = performance.now()
  const problems: string[] = []
  const query = new URLSearchParams({ task_id: task.task_id, run_id: input.run_id, seed: task.seed, remove_popup: String(task.remove_popup) })
  const configured = await context.request.get(`${shop}/config?${query}`)
  if (!configured.ok()) throw new Error(`/config answered ${configured.status()}`)
  const tab = new Tab(await context.newPage())
  await tab.page.goto(new URL(task.start_path, shop).href, { waitUntil: 'load' })
  const shot = async () => `data:image/png;base64,${(await tab.page.screenshot({ type: 'png' })).toString('base64')}`
  const tools = [
    { type: 'computer_use_preview', display_width: input.viewport.width, display_height: input.viewport.height, environment: 'browser' },
    { type: 'function', name: 'goto', parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'], additionalProperties: false }, strict: true },
    { type: 'function', name: 'back', parameters: { type: 'object', properties: {}, additionalProperties: false }, strict: true },
  ]
  const history: unknown[] = [
    {
      role: 'user',
      content: [
        { type: 'input_text', text: task.goal },
        { type: 'input_text', text: `URL: ${tab.page.url()}` },
        { type: 'input_image', image_url: await shot(), detail: 'auto' },
      ],
    },
  ]
  let answer: string | null = null
  let calls = 0
  for (let turn = 0; turn < input.max_turns && answer === null; turn++) {
    calls++
    const body = { model: input.model, instructions: INSTRUCTIONS, input: history, tools, truncation: 'auto', reasoning: { summary: 'concise' } }
    // The SDK's types do not spell the sample app's input_image outputs; the body is the API's.
    const response = Response.parse(await client.responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming))
    history.push(...response.output)
    const acts = response.output.filter((item) => item.type === 'computer_call' || item.type === 'function_call')
    if (acts.length === 0) {
      const message = response.output.find((item) => item.type === 'message')
      const parts = z.array(z.object({ text: z.string().optional() }).loose()).parse(message?.content ?? [])
      answer = parts.map((p) => p.text ?? '').join('').trim()
      break
    }
    for (const item of acts) {
      const callId = z.string().parse(item.call_id)
      if (item.type === 'computer_call') {
        const actions = z.array(Action).parse(item.actions ?? [item.action])
        for (const action of actions) await perform(tab, action)
        history.push({ type: 'computer_call_output', call_id: callId, output: { type: 'input_image', image_url: await shot(), current_url: tab.page.url() } })
      } else {
        const args = z.object({ url: z.string().optional() }).parse(JSON.parse(z.string().parse(item.arguments) || '{}'))
        if (item.name === 'goto') await tab.page.goto(new URL(args.url ?? '/', tab.page.url()).href, { waitUntil: 'load' })
        else await tab.page.goBack({ waitUntil: 'load' })
        history.push({ type: 'function_call_output', call_id: callId, output: `done; the page is now ${tab.page.url()}` })
      }
    }
  }
  const finish = z.object({ initial: z.unknown(), diff: z.unknown() }).parse(await (await context.request.get(`${shop}/finish`)).json())
  if (answer === null) problems.push(`${task.key}: no final answer after ${input.max_turns} model calls`)
  if (!isDeepStrictEqual(finish.initial, task.expected_initial)) problems.push(`${task.key}: the session did not start from the recorded state`)
  if (!isDeepStrictEqual(finish.diff, task.expected_diff)) problems.push(`${task.key}: the end state differs from the recorded run's`)
  if ((task.expected_answer ?? null) !== null && answer !== task.expected_answer) problems.push(`${task.key}: the answer differs from the recorded run's`)
  return { key: task.key, calls, duration_s: (performance.now() - started) / 1000, problems }
}

async function main(): Promise<void> {
  const file = process.argv[2]
  if (!file) throw new Error('usage: bare-cua.ts <input.json>')
  const input = BareInput.parse(JSON.parse(readFileSync(file, 'utf8')))
  const setupStarted = performance.now()
  const [shop, browser] = await Promise.all([startOmnizon(), chromium.launch({ executablePath: input.executable_path, headless: true, args: input.args })])
  const client = new OpenAI({ baseURL: input.base_url, apiKey: input.api_key, maxRetries: 0 })
  const setup_s = (performance.now() - setupStarted) / 1000
  const queue = [...input.tasks]
  const results: Array<BareResult> = []
  const loopStarted = performance.now()
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      const context = await browser.newContext({ viewport: input.viewport, screen: input.viewport, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC' })
      await context.addInitScript(markLeaving)
      // A loaded machine is slow, not wrong: Playwright's 30 s defaults would turn it into failures.
      context.setDefaultTimeout(120_000)
      context.setDefaultNavigationTimeout(120_000)
      try {
        results.push(await runTask(task, input, context, shop.url, client))
      } catch (error) {
        const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
        results.push({ key: task.key, calls: 0, duration_s: 0, problems: [`${task.key}: ${message}`] })
      } finally {
        await context.close()
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(input.concurrency, input.tasks.length) }, worker))
  const loop_s = (performance.now() - loopStarted) / 1000
  await Promise.all([browser.close(), shop.close()])
  process.stdout.write(`${JSON.stringify({ loop_s, setup_s, results } satisfies BareOutput)}\n`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main()
