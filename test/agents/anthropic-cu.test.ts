import sharp from 'sharp'
import { afterEach, describe, expect, test } from 'vitest'
import { byTurn, startAnthropicServer, type AnthropicCall, type AnthropicPolicy } from '../../fixtures/model-server/index.ts'
import { anthropicCu, ModelRefusalError } from '../../src/agents/anthropic-cu/index.ts'
import { ModelCallError } from '../../src/agents/shared/client.ts'
import { AgentOptionsError } from '../../src/agents/shared/options.ts'
import { agentContext, FakeComputer, rejection, TEST_KEY } from './helpers.ts'

let server: Awaited<ReturnType<typeof startAnthropicServer>> | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function run(policy: AnthropicPolicy, agentOptions: Record<string, unknown> = {}, computer = new FakeComputer(), model: string | null = null, signal?: AbortSignal) {
  server = await startAnthropicServer({ policy })
  const context = agentContext({ computer, baseUrl: server.url, agentOptions, signal, model })
  return { server, computer, context, outcome: anthropicCu.run(context) }
}

type Block = Record<string, unknown>
const messagesOf = (call: AnthropicCall | undefined) => (call?.body.messages ?? []) as Array<{ role: string; content: Block[] }>
/** The PNGs in the last user message's tool results, as sizes. */
async function resultImageSizes(call: AnthropicCall): Promise<Array<[number, number]>> {
  const last = messagesOf(call).at(-1)!.content
  const images = last.flatMap((block) => ((block.content ?? []) as Block[]).filter((part) => part.type === 'image'))
  return Promise.all(
    images.map(async (image) => {
      const meta = await sharp(Buffer.from((image.source as { data: string }).data, 'base64')).metadata()
      return [meta.width, meta.height] as [number, number]
    }),
  )
}

describe('anthropic-cu: the Messages API computer-use loop', () => {
  test('acts, answers, and sends what the computer_20250124 tool expects', async () => {
    const { server, computer, context, outcome } = await run(
      byTurn([
        { say: 'The search box is at the top.', actions: [{ action: 'left_click', coordinate: [595, 30] }] },
        { actions: [{ action: 'type', text: 'laptop' }] },
        { actions: [{ action: 'key', text: 'Return' }], tools: [{ name: 'goto', input: { url: '/search?q=laptop' } }] },
        { actions: [{ action: 'scroll', coordinate: [640, 400], scroll_direction: 'down', scroll_amount: 3 }] },
        { answer: 'The MacBook Air is first.' },
      ]),
    )
    const { answer, usage } = await outcome
    expect(answer).toBe('The MacBook Air is first.')
    expect(computer.actions).toEqual([
      { type: 'click', x: 595, y: 30, button: 'left' },
      { type: 'type', text: 'laptop' },
      { type: 'keypress', keys: ['Enter'] },
      { type: 'goto', url: 'http://shop.test/search?q=laptop' },
      // Three wheel units of 100 px in a browser.
      { type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 300 },
    ])
    expect(context.thoughts).toEqual(['The search box is at the top.'])
    const calls = server.requests
    expect(calls.map((c) => c.status)).toEqual([200, 200, 200, 200, 200])
    const first = calls[0]!
    expect(first.model).toBe('claude-sonnet-4-5')
    expect(first.betas).toEqual(['computer-use-2025-01-24'])
    expect(first.body).toMatchObject({
      max_tokens: 4096,
      tools: [
        { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 },
        { name: 'goto', input_schema: { type: 'object' } },
        { name: 'back', input_schema: { type: 'object' } },
      ],
    })
    expect(JSON.stringify(first.body.tools)).not.toContain('enable_zoom')
    expect(String(first.body.system)).toContain('final answer')
    expect(first.goal).toContain(context.task.goal)
    expect(first.screenshot).not.toBeNull()
    // Every tool use is answered with the screen after it; the newest user turns carry the cache breakpoints.
    const third = calls[2]!
    expect(third.toolResults.map((r) => [r.is_error, r.images])).toEqual([[false, 1]])
    expect(calls[3]!.toolResults.map((r) => r.texts[0])).toEqual([undefined, 'The page is now http://shop.test/search?q=laptop'])
    const marked = messagesOf(calls[4]).flatMap((m, i) => m.content.flatMap((b, j) => ('cache_control' in b ? [[i, j]] : [])))
    expect(marked).toEqual([[6, 1], [8, 0]])
    const counted = calls.reduce((sum, c) => {
      const u = c.response!.usage
      return sum + u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
    }, 0)
    expect(usage?.input_tokens).toBe(counted)
    expect(calls.some((c) => c.response!.usage.cache_read_input_tokens > 0)).toBe(true)
    expect(calls.every((c) => c.apiKey === TEST_KEY)).toBe(true)
  })

  test('computer_20251124 (the default for Opus 4.5): zoom at full resolution, the pointer in screenshot pixels, and the new actions', async () => {
    const { server, computer, outcome } = await run(
      byTurn([
        { actions: [{ action: 'mouse_move', coordinate: [100, 50] }, { action: 'cursor_position' }] },
        { actions: [{ action: 'zoom', region: [0, 0, 320, 200] }] },
        { actions: [{ action: 'triple_click', coordinate: [10, 10], text: 'shift' }, { action: 'left_mouse_down' }, { action: 'left_mouse_up', coordinate: [20, 30] }] },
        { actions: [{ action: 'hold_key', text: 'ctrl', duration: 0.2 }, { action: 'left_click_drag', start_coordinate: [1, 2], coordinate: [3, 4] }] },
        { answer: 'done' },
      ]),
      { screenshot_fit: { width: 640, height: 400 } },
      new FakeComputer(),
      'claude-opus-4-5-20251101',
    )
    expect((await outcome).answer).toBe('done')
    const calls = server.requests
    expect(calls[0]!.betas).toEqual(['computer-use-2025-11-24'])
    expect(calls[0]!.body.tools).toContainEqual({ type: 'computer_20251124', name: 'computer', display_width_px: 640, display_height_px: 400, enable_zoom: true })
    // The pointer went to (200, 100) on the screen and is reported where the model put it.
    expect(calls[1]!.toolResults.map((r) => r.texts)).toEqual([[], ['X=100,Y=50']])
    // Half the screenshot's width and height, cut from the full-size screen: 640x400, not 320x200.
    expect(await resultImageSizes(calls[2]!)).toEqual([[640, 400]])
    expect(await resultImageSizes(calls[1]!)).toEqual([[640, 400]])
    expect(computer.actions).toEqual([
      { type: 'move', x: 200, y: 100 },
      { type: 'triple_click', x: 20, y: 20, keys: ['Shift'] },
      { type: 'mouse_down', button: 'left' },
      { type: 'move', x: 40, y: 60 },
      { type: 'mouse_up', button: 'left' },
      { type: 'hold_key', keys: ['Control'], ms: 200 },
      { type: 'drag', path: [{ x: 2, y: 4 }, { x: 6, y: 8 }] },
    ])
  })

  test('extended thinking: the blocks go back unchanged (the double refuses any other history) and become thoughts', async () => {
    const { server, context, outcome } = await run(
      byTurn([
        { thinking: 'I should click the search box first.', actions: [{ action: 'left_click', coordinate: [595, 30] }] },
        { thinking: 'Now type.', actions: [{ action: 'type', text: 'laptop' }] },
        { thinking: 'Done.', answer: 'ok' },
      ]),
      { thinking_budget: 2048 },
    )
    expect((await outcome).answer).toBe('ok')
    expect(server.requests.map((c) => c.status)).toEqual([200, 200, 200])
    expect(server.requests[0]!.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 6144 })
    expect(context.thoughts).toEqual(['I should click the search box first.', 'Now type.', 'Done.'])
  })

  test('the computer_20250124 tool has no zoom; an unknown action is answered as an error and the loop goes on', async () => {
    const { server, outcome } = await run(
      byTurn([{ actions: [{ action: 'zoom', region: [0, 0, 10, 10] }, { action: 'teleport', coordinate: [1, 1] }] }, { answer: 'gave up on zooming' }]),
    )
    expect((await outcome).answer).toBe('gave up on zooming')
    const results = server.requests[1]!.toolResults
    expect(results.map((r) => r.is_error)).toEqual([true, true])
    expect(results[0]!.texts[0]).toMatch(/^Error: unknown action "zoom" \(the computer tool knows: key, /)
    expect(results[1]!.texts[0]).toMatch(/^Error: unknown action "teleport"/)
  })

  test('too many invalid tool uses end the task with the last one', async () => {
    const bad = { actions: [{ action: 'left_click', coordinate: ['a', 'b'] }] }
    const { outcome } = await run(byTurn([bad, bad, bad]), { max_tool_errors: 1 })
    expect((await rejection(outcome)).message).toMatch(/the model made 2 invalid tool calls \(agent.options.max_tool_errors: 1\); last: left_click.coordinate.0: /)
  })

  test('429 with retry-after and 529 overloaded are retried; a lasting 529, a 500, a malformed body and a hung call end the task as model errors', async () => {
    const ok = { answer: 'fine' }
    const flaky = await run([{ fault: 'status', status: 429, retry_after: 1 }, { fault: 'status', status: 529 }, ok], { retries: 2 })
    expect((await flaky.outcome).answer).toBe('fine')
    const times = flaky.server.requests.map((c) => c.receivedAt)
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900)
    await server?.close()

    for (const [policy, options, message] of [
      [[{ fault: 'status', status: 529 }, { fault: 'status', status: 529 }], { retries: 1 }, /^the Messages API failed \(529\): overloaded_error: /],
      [[{ fault: 'status', status: 500, message: 'scripted outage' }], { retries: 0 }, /^the Messages API failed \(500\): api_error: scripted outage$/],
      [[{ fault: 'malformed' }, { fault: 'malformed' }], { retries: 1 }, /^the Messages API sent a malformed response \(2 attempts\)/],
      [[{ fault: 'hang' }], { retries: 0, timeout_ms: 500 }, /^the Messages API timed out/],
    ] as const) {
      const failing = await run([...policy] as AnthropicPolicy, options)
      const error = await rejection(failing.outcome)
      expect(error).toBeInstanceOf(ModelCallError)
      expect(error.message).toMatch(message)
      expect(error.message).not.toContain(TEST_KEY)
      await server?.close()
      server = null
    }
  })

  test('a refusal ends the task with its words; the task signal aborts a call in flight', async () => {
    const refused = await run([{ refusal: 'I cannot help with buying that.' }])
    const error = await rejection(refused.outcome)
    expect(error).toBeInstanceOf(ModelRefusalError)
    expect(error.message).toBe('the model refused to go on (stop_reason: refusal): I cannot help with buying that.')
    await server?.close()

    const controller = new AbortController()
    const hung = await run([{ fault: 'hang' }], {}, new FakeComputer(), null, controller.signal)
    setTimeout(() => controller.abort(new Error('task timed out')), 300)
    const started = Date.now()
    await rejection(hung.outcome)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  test('a desktop: environment linux, no browser tools, scroll units are wheel clicks', async () => {
    const { server, computer, outcome } = await run(
      byTurn([{ actions: [{ action: 'scroll', coordinate: [10, 10], scroll_direction: 'up', scroll_amount: 2, text: 'ctrl' }] }, { answer: 'ok' }]),
      {},
      new FakeComputer('linux'),
    )
    expect((await outcome).answer).toBe('ok')
    expect(server.requests[0]!.body.tools).toHaveLength(1)
    expect(String(server.requests[0]!.body.system)).toContain('linux desktop')
    expect(computer.actions).toEqual([{ type: 'scroll', x: 10, y: 10, scroll_x: 0, scroll_y: -100, keys: ['Control'] }])
  })

  test('options are checked: thinking with a temperature is one line naming the field', async () => {
    const { outcome } = await run([{ answer: 'never asked' }], { thinking_budget: 2048, temperature: 0.2 })
    const error = await rejection(outcome)
    expect(error).toBeInstanceOf(AgentOptionsError)
    expect(error.message).toMatch(/^agent\.options\.temperature: cannot be set with thinking_budget/)
  })
})
