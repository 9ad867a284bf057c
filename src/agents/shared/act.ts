import { performAction, type Computer } from '../../computer/computer.ts'
import { ComputerAction } from '../../schema/action.ts'
import type { ScreenScale } from './image.ts'
import type { UrlBlocklist } from './blocklist.ts'

export type Checked = { ok: true; action: ComputerAction } | { ok: false; error: string }

/**
 * Validates a model's action (ComputerAction, the CUA shapes) in image pixels and converts it to
 * screen pixels. A relative `goto` URL is resolved against the page's URL.
 */
export async function checkAction(raw: unknown, scale: ScreenScale, computer: Computer): Promise<Checked> {
  const parsed = ComputerAction.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const type = typeof raw === 'object' && raw !== null && 'type' in raw ? String(raw.type) : 'action'
    const where = issue.path.length ? `${type}.${issue.path.join('.')}` : type
    return { ok: false, error: `${where}: ${issue.message}` }
  }
  let action = ComputerAction.parse(scale.toScreen(parsed.data))
  if (action.type === 'goto') {
    const base = (await computer.currentUrl()) ?? undefined
    try {
      action = { ...action, url: new URL(action.url, base).href }
    } catch {
      return { ok: false, error: `goto.url: not a URL: ${action.url}` }
    }
  }
  if ((action.type === 'goto' || action.type === 'back' || action.type === 'forward') && !computer[action.type]) {
    return { ok: false, error: `${action.type}: not available on a ${computer.environment} computer` }
  }
  return { ok: true, action }
}

/** Runs a checked action (a recorded step), then applies the agent's URL blocklist. */
export async function act(computer: Computer, action: ComputerAction, blocklist: UrlBlocklist): Promise<void> {
  await performAction(computer, action)
  await blocklist.check(computer)
}

/** Counts the model's invalid tool calls; past the limit the task errors with the last one. */
export class ToolErrors {
  private count = 0

  constructor(private readonly max: number) {}

  note(error: string): void {
    this.count++
    if (this.count > this.max) {
      throw new Error(`the model made ${this.count} invalid tool calls (agent.options.max_tool_errors: ${this.max}); last: ${error}`)
    }
  }
}

/** Sums token usage over a task's model calls. */
export class Usage {
  input_tokens = 0
  output_tokens = 0

  add(input: number | undefined | null, output: number | undefined | null): void {
    this.input_tokens += input ?? 0
    this.output_tokens += output ?? 0
  }

  get total() {
    return { input_tokens: this.input_tokens, output_tokens: this.output_tokens }
  }
}
