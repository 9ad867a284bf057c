import sharp from 'sharp'
import type { AgentContext, HarnessAccess } from '../../src/agents/agent.ts'
import { agentTaskOf } from '../../src/agents/task.ts'
import type { Computer, Environment } from '../../src/computer/computer.ts'
import type { ComputerAction, HoldableButton, MouseButton, Point } from '../../src/schema/action.ts'
import { AgentConfig } from '../../src/schema/config.ts'
import type { TestCase } from '../../src/schema/task.ts'

const SCREEN = { width: 1280, height: 800 }
let blank: Promise<Buffer> | null = null

/** A PNG of the screen's size (made once). */
export function blankScreenshot(): Promise<Buffer> {
  blank ??= sharp({ create: { ...SCREEN, channels: 3, background: '#f0f0f0' } }).png().toBuffer()
  return blank
}

/** A Computer that records what it is told, for agent loops tested without a browser. */
export class FakeComputer implements Computer {
  readonly dimensions = SCREEN
  readonly actions: ComputerAction[] = []
  url: string
  goto?: (url: string) => Promise<void>
  back?: () => Promise<void>
  accessibilityTree?: () => Promise<string>

  constructor(readonly environment: Environment = 'browser', start = 'http://shop.test/') {
    this.url = start
    if (environment === 'browser') {
      this.goto = async (url) => {
        this.actions.push({ type: 'goto', url })
        this.url = url
      }
      this.back = async () => void this.actions.push({ type: 'back' })
      this.accessibilityTree = async () => '- searchbox "Search Omnizon"\n- button "Go"'
    }
  }

  screenshot() {
    return blankScreenshot()
  }
  /** Where the last pointer action left the pointer. */
  pointer: Point = { x: 0, y: 0 }

  async click(x: number, y: number, button: MouseButton = 'left', keys?: string[]) {
    this.pointer = { x, y }
    this.actions.push({ type: 'click', x, y, button, ...(keys ? { keys } : {}) })
  }
  async doubleClick(x: number, y: number, keys?: string[]) {
    this.pointer = { x, y }
    this.actions.push({ type: 'double_click', x, y, ...(keys ? { keys } : {}) })
  }
  async tripleClick(x: number, y: number, keys?: string[]) {
    this.pointer = { x, y }
    this.actions.push({ type: 'triple_click', x, y, ...(keys ? { keys } : {}) })
  }
  async scroll(x: number, y: number, scroll_x: number, scroll_y: number, keys?: string[]) {
    this.pointer = { x, y }
    this.actions.push({ type: 'scroll', x, y, scroll_x, scroll_y, ...(keys ? { keys } : {}) })
  }
  async mouseDown(button: HoldableButton = 'left') {
    this.actions.push({ type: 'mouse_down', button })
  }
  async mouseUp(button: HoldableButton = 'left') {
    this.actions.push({ type: 'mouse_up', button })
  }
  async holdKey(keys: string[], ms: number) {
    this.actions.push({ type: 'hold_key', keys, ms })
  }
  async cursorPosition() {
    return { ...this.pointer }
  }
  async type(text: string) {
    this.actions.push({ type: 'type', text })
  }
  async wait(ms = 1000) {
    this.actions.push({ type: 'wait', ms })
  }
  async move(x: number, y: number) {
    this.pointer = { x, y }
    this.actions.push({ type: 'move', x, y })
  }
  async keypress(keys: string[]) {
    this.actions.push({ type: 'keypress', keys })
  }
  async drag(path: Point[]) {
    this.pointer = path[path.length - 1]!
    this.actions.push({ type: 'drag', path })
  }
  async currentUrl() {
    return this.environment === 'browser' ? this.url : null
  }
}

export const TEST_KEY = 'sk-test-agentest-0123456789abcdef'

export const TASK: TestCase = {
  id: 'omnizon-1',
  name: 'omnizon-1',
  category: 'omnizon',
  level: null,
  task: 'Search Omnizon for "laptop" and tell me the name of the first product in the results.',
  setup_cmd: null,
  desktop_image: null,
  checks: [],
  app: 'omnizon',
  start_path: '/',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  variant: null,
  epoch: 1,
}

/** What an agent is told of TASK. */
export const AGENT_TASK = agentTaskOf(TASK, { environment: 'browser', screen: SCREEN, maxSteps: TASK.max_steps, timeoutMs: 60_000 })

/** Harness access for a built-in agent under test (replay's results folder, no reference). */
export function harnessAccess(overrides: Partial<HarnessAccess> = {}): HarnessAccess {
  return {
    reference: null,
    referenceName: 'reference solution',
    resultsDir: '/nonexistent',
    agentServer: null,
    report: async () => {
      throw new Error('no packaged agent here')
    },
    log: async () => {},
    ...overrides,
  }
}

export interface TestContext extends AgentContext {
  thoughts: string[]
}

/** An AgentContext for an agent under test, with the key in a variable of its own. */
export function agentContext(options: {
  computer: Computer
  baseUrl: string
  agentOptions?: Record<string, unknown>
  model?: string | null
  signal?: AbortSignal
}): TestContext {
  process.env.AGENTEST_TEST_KEY = TEST_KEY
  const thoughts: string[] = []
  return {
    task: AGENT_TASK,
    computer: options.computer,
    signal: options.signal ?? new AbortController().signal,
    think: (thought) => void thoughts.push(thought),
    thoughts,
    config: AgentConfig.parse({
      name: 'openai-cua',
      model: options.model === undefined ? 'scripted-model' : options.model,
      base_url: options.baseUrl,
      api_key_env: 'AGENTEST_TEST_KEY',
      options: options.agentOptions ?? {},
    }),
  }
}

/** The error a promise rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Error) return error
    throw new Error(`rejected with a non-error: ${String(error)}`)
  }
  throw new Error('expected a rejection')
}
