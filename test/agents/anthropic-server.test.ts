import Anthropic from '@anthropic-ai/sdk'
import type { BetaContentBlock, BetaMessageParam, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages'
import sharp from 'sharp'
import { afterEach, describe, expect, test } from 'vitest'
import {
  anthropicReplayItems,
  anthropicReplayPolicy,
  byTurn,
  startAnthropicServer,
  type AnthropicPolicy,
  type AnthropicServer,
} from '../../fixtures/model-server/index.ts'
import type { StepAction } from '../../src/schema/action.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { record } from '../runs/fixtures.ts'

let server: AnthropicServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

const KEY = 'sk-ant-test-double'
const COMPUTER_2025_01: BetaToolUnion = { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 }
const COMPUTER_2025_11: BetaToolUnion = { type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800, enable_zoom: true }
const GOTO: BetaToolUnion = { name: 'goto', description: 'Open a URL', input_schema: { type: 'object', properties: { url: { type: 'string' } } } }

async function start(policy: AnthropicPolicy, options: { maxRetries?: number; timeout?: number } = {}) {
  server = await startAnthropicServer({ policy })
  const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: options.maxRetries ?? 2, timeout: options.timeout })
  return { server, client }
}

type Params = Partial<Anthropic.Beta.Messages.MessageCreateParamsNonStreaming>
/** A computer-use call as an agent makes it (the 2025-01-24 tool unless told otherwise). */
function create(client: Anthropic, params: Params = {}) {
  return client.beta.messages.create({
    model: 'claude-test',
    max_tokens: 4096,
    tools: [COMPUTER_2025_01, GOTO],
    betas: ['computer-use-2025-01-24'],
    messages: [{ role: 'user', content: 'Task: buy a laptop' }],
    ...params,
  })
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the call to fail')
}

let png: Promise<Buffer> | null = null
const screenshot = () => (png ??= sharp({ create: { width: 1280, height: 800, channels: 3, background: '#eee' } }).png().toBuffer())
const image = async () => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: (await screenshot()).toString('base64') } })

/** The user message answering every tool_use of a reply, each with a screenshot. */
async function toolResults(content: BetaContentBlock[]): Promise<BetaMessageParam> {
  const uses = content.filter((b) => b.type === 'tool_use')
  return { role: 'user', content: await Promise.all(uses.map(async (u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: [await image()] }))) }
}

const goal: BetaMessageParam = { role: 'user', content: 'Task: buy a laptop' }
const thinking = { type: 'enabled' as const, budget_tokens: 1024 }

describe('the scripted Anthropic server (a test double) speaks the Messages API to the real SDK', () => {
  test('a turn: thinking, text and tool_use blocks, stop_reason tool_use, usage', async () => {
    const { client, server } = await start([
      { thinking: 'The search box is at the top.', say: 'Clicking the search box.', actions: [{ action: 'left_click', coordinate: [10, 20] }], tools: [{ name: 'goto', input: { url: '/cart' } }] },
    ])
    const message = await create(client, { thinking })
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-test', stop_reason: 'tool_use', stop_sequence: null })
    expect(message.id).toMatch(/^msg_/)
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use'])
    const [think, text, click, goto] = message.content
    expect(think).toMatchObject({ thinking: 'The search box is at the top.', signature: expect.stringMatching(/.{20}/) })
    expect(text).toMatchObject({ text: 'Clicking the search box.' })
    expect(click).toMatchObject({ name: 'computer', input: { action: 'left_click', coordinate: [10, 20] }, id: expect.stringMatching(/^toolu_/) })
    expect(goto).toMatchObject({ name: 'goto', input: { url: '/cart' } })
    expect(click!.type === 'tool_use' && goto!.type === 'tool_use' && click.id !== goto.id).toBe(true)
    expect(message.usage.input_tokens).toBeGreaterThan(0)
    expect(message.usage.output_tokens).toBeGreaterThan(0)
    expect(message.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })

    const call = server.requests[0]!
    expect(call).toMatchObject({ goal: 'Task: buy a laptop', turn: 0, attempt: 0, thinking: true, betas: ['computer-use-2025-01-24'], status: 200 })
    expect(call.apiKey).toBe(KEY)
    expect(JSON.stringify(call)).not.toContain(KEY)
  })

  test('without thinking enabled the thinking block is left out', async () => {
    const { client } = await start([{ thinking: 'hidden', actions: [{ action: 'screenshot' }] }])
    const message = await create(client)
    expect(message.content.map((b) => b.type)).toEqual(['tool_use'])
  })

  test('an answer ends the turn; a refusal says so', async () => {
    const { client } = await start([{ answer: 'The laptop costs $999.' }, { refusal: 'I cannot help with that.' }])
    const answer = await create(client)
    expect(answer.stop_reason).toBe('end_turn')
    expect(answer.content).toEqual([{ type: 'text', text: 'The laptop costs $999.' }])
    const refusal = await create(client)
    expect(refusal.stop_reason).toBe('refusal')
    expect(refusal.content).toEqual([{ type: 'text', text: 'I cannot help with that.' }])
  })

  test('the next turn: its number, the screenshot and tool results are read from the request', async () => {
    const { client, server } = await start(byTurn([{ actions: [{ action: 'screenshot' }] }, { answer: 'done' }]))
    const first = await create(client)
    const reply: BetaMessageParam = { role: 'assistant', content: first.content }
    const second = await create(client, { messages: [goal, reply, await toolResults(first.content)] })
    expect(second.stop_reason).toBe('end_turn')
    const [a, b] = server.requests
    expect([a!.turn, b!.turn]).toEqual([0, 1])
    expect(b!.conversation).toBe(a!.conversation)
    expect(b!.screenshot?.equals(await screenshot())).toBe(true)
    expect(b!.toolResults).toEqual([{ tool_use_id: (first.content[0] as { id: string }).id, is_error: false, texts: [], images: 1 }])
    // A 1280x800 screenshot is about 1280 * 800 / 750 tokens, not its base64 length / 4.
    expect(second.usage.input_tokens - first.usage.input_tokens).toBeGreaterThanOrEqual(1366)
    expect(second.usage.input_tokens - first.usage.input_tokens).toBeLessThan(1600)
  })

  test('prompt caching: the prefix written at a breakpoint is read back on the next turn', async () => {
    const { client } = await start(byTurn([{ actions: [{ action: 'screenshot' }] }, { answer: 'done' }]))
    const cachedGoal: BetaMessageParam = { role: 'user', content: [{ type: 'text', text: 'Task: buy a laptop', cache_control: { type: 'ephemeral' } }] }
    const first = await create(client, { messages: [cachedGoal] })
    expect(first.usage.cache_read_input_tokens).toBe(0)
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0)
    expect(first.usage.input_tokens).toBe(0)
    const results = await toolResults(first.content)
    const last = (results.content as Array<{ cache_control?: { type: 'ephemeral' } }>).at(-1)!
    last.cache_control = { type: 'ephemeral' }
    const second = await create(client, { messages: [cachedGoal, { role: 'assistant', content: first.content }, results] })
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(1366)
  })

  test('429 with retry-after 1: the SDK waits and retries, and succeeds', async () => {
    const { client, server } = await start(byTurn([[{ fault: 'status', status: 429, retry_after: 1 }, { answer: 'ok' }]]))
    const message = await create(client)
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }])
    expect(server.requests.map((r) => [r.status, r.attempt])).toEqual([
      [429, 0],
      [200, 1],
    ])
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950)
  })

  test('529 without retries: an APIError with status 529 and type overloaded_error', async () => {
    const { client, server } = await start([{ fault: 'status', status: 529, message: 'Overloaded' }], { maxRetries: 0 })
    const error = await rejection(create(client))
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect(error).toMatchObject({ status: 529, type: 'overloaded_error' })
    expect(error.message).toContain('Overloaded')
    expect(server.requests).toHaveLength(1)
  })

  test('a malformed body fails to parse', async () => {
    const { client } = await start([{ fault: 'malformed' }], { maxRetries: 0 })
    expect(await rejection(create(client))).toBeInstanceOf(SyntaxError)
  })

  test('a hung call times out at the SDK timeout, and the server records the hang-up', async () => {
    const { client, server } = await start([{ fault: 'hang' }], { maxRetries: 0, timeout: 500 })
    const began = Date.now()
    expect(await rejection(create(client))).toBeInstanceOf(Anthropic.APIConnectionTimeoutError)
    expect(Date.now() - began).toBeLessThan(5_000)
    await expect.poll(() => server.requests[0]?.aborted).toBe(true)
  })

  test('a dropped connection is a connection error', async () => {
    const { client } = await start([{ fault: 'drop' }], { maxRetries: 0 })
    expect(await rejection(create(client))).toBeInstanceOf(Anthropic.APIConnectionError)
  })
})

describe('the double refuses what the API refuses', () => {
  /** Fails the test if the policy is asked: a refused request never reaches it. */
  const unreachable: AnthropicPolicy = () => {
    throw new Error('the policy was asked about a request the server should have refused')
  }
  const refused = async (params: Params, client?: Anthropic) => {
    const started = client ? null : await start(unreachable, { maxRetries: 0 })
    return rejection(create(client ?? started!.client, params))
  }

  test('a tool_use without its tool_result in the next message', async () => {
    const assistant: BetaMessageParam = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'computer', input: { action: 'screenshot' } }] }
    const error = await refused({ messages: [goal, assistant, { role: 'user', content: 'go on' }] })
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error' })
    expect(error.message).toMatch(/messages\.1: tool_use ids without a tool_result.*toolu_1/)
    expect(server!.requests[0]!.rejected).toContain('toolu_1')
  })

  test('tool_result blocks after a text block', async () => {
    const assistant: BetaMessageParam = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'computer', input: { action: 'screenshot' } }] }
    const user: BetaMessageParam = { role: 'user', content: [{ type: 'text', text: 'here' }, { type: 'tool_result', tool_use_id: 'toolu_1' }] }
    expect((await refused({ messages: [goal, assistant, user] })).message).toContain('messages.2.content.0: tool_result blocks must come first')
  })

  test('roles that do not alternate', async () => {
    expect((await refused({ messages: [goal, goal] })).message).toContain('messages.1.role: roles must alternate')
  })

  test('a thinking block dropped or changed on the way back; unchanged passes', async () => {
    const { client } = await start(byTurn([{ thinking: 'Click search.', actions: [{ action: 'left_click', coordinate: [1, 2] }] }, { answer: 'done' }]), { maxRetries: 0 })
    const first = await create(client, { thinking })
    const results = await toolResults(first.content)
    const [think, ...rest] = first.content
    const withContent = (content: BetaContentBlock[]) => create(client, { thinking, messages: [goal, { role: 'assistant', content }, results] })

    const dropped = await rejection(withContent(rest))
    expect(dropped).toMatchObject({ status: 400 })
    expect(dropped.message).toContain('messages.1.content.0.type: expected the thinking block')
    const changed = await rejection(withContent([{ ...think!, thinking: 'Click the cart.' } as BetaContentBlock, ...rest]))
    expect(changed.message).toContain('messages.1.content.0: the thinking block does not match its signature')
    const resigned = await rejection(withContent([{ ...think!, signature: 'forged' } as BetaContentBlock, ...rest]))
    expect(resigned.message).toContain('messages.1.content.0: the thinking block is not the one')
    expect((await withContent(first.content)).stop_reason).toBe('end_turn')
  })

  test('thinking needs max_tokens above its budget', async () => {
    expect((await refused({ thinking: { type: 'enabled', budget_tokens: 4096 }, max_tokens: 4096 })).message).toContain('max_tokens: must be greater than thinking.budget_tokens')
  })

  test('five cache_control blocks (four pass)', async () => {
    const block = (text: string) => ({ type: 'text' as const, text, cache_control: { type: 'ephemeral' as const } })
    const { client } = await start([{ answer: 'ok' }], { maxRetries: 0 })
    const four = await create(client, { system: [block('a'), block('b')], messages: [{ role: 'user', content: [block('c'), block('d')] }] })
    expect(four.stop_reason).toBe('end_turn')
    const error = await refused({ system: [block('a'), block('b')], messages: [{ role: 'user', content: [block('c'), block('d'), block('e')] }] }, client)
    expect(error.message).toContain('cache_control: at most 4 blocks may carry cache_control; this request has 5')
  })

  test('a computer tool without its beta, and enable_zoom on the older tool; the matching pair passes', async () => {
    const { client } = await start([{ answer: 'ok' }], { maxRetries: 0 })
    const wrongBeta = await refused({ tools: [COMPUTER_2025_11], betas: ['computer-use-2025-01-24'] }, client)
    expect(wrongBeta.message).toContain('tools.0.type: computer_20251124 needs the anthropic-beta header to include computer-use-2025-11-24')
    const zoom = await refused({ tools: [{ ...COMPUTER_2025_01, enable_zoom: true } as BetaToolUnion], betas: ['computer-use-2025-01-24'] }, client)
    expect(zoom.message).toContain('tools.0.enable_zoom: only computer_20251124 takes enable_zoom')
    expect((await create(client, { tools: [COMPUTER_2025_11], betas: ['computer-use-2025-11-24'] })).stop_reason).toBe('end_turn')
  })

  test('an image whose bytes are not its media type', async () => {
    const mislabeled = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/jpeg' as const, data: (await screenshot()).toString('base64') } }
    const error = await refused({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Task: x' }, mislabeled] }] })
    expect(error.message).toContain('messages.0.content.1.source: the image is image/png but media_type says image/jpeg')
  })

  test('no API key: 401 authentication_error', async () => {
    server = await startAnthropicServer({ policy: unreachable })
    const client = new Anthropic({ apiKey: null, authToken: null, baseURL: server.url, maxRetries: 0, defaultHeaders: { Authorization: null } })
    const error = await rejection(create(client))
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError)
    expect(error).toMatchObject({ status: 401, type: 'authentication_error' })
    expect(error.message).toContain('x-api-key: header is required')
  })

  test('streaming, and routes other than POST /v1/messages', async () => {
    const { client, server } = await start(unreachable, { maxRetries: 0 })
    const stream = await rejection(client.beta.messages.create({ model: 'm', max_tokens: 10, messages: [goal], stream: true }))
    expect(stream.message).toContain('stream: the scripted server does not stream')
    const response = await fetch(`${server.url}/v1/models`)
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
  })
})

describe('anthropicReplayPolicy serves a recorded run as Claude would', () => {
  const ORIGIN = 'http://127.0.0.1:4173'
  const step = (index: number, action: StepAction, thought = '') => ({
    index,
    timestamp: index,
    action,
    thought,
    screenshot: null,
    url: `${ORIGIN}/`,
    error: null,
  })
  const recorded = (steps: StepAction[], url: string | null = `${ORIGIN}/`): TestCaseRun =>
    record({
      id: 'omnizon-x',
      task: 'Save the cart.',
      final_answer: 'Saved 2 items.',
      trajectory: steps.map((action, i) => ({ ...step(i, action, i === 0 ? 'Shift-click the first item.' : ''), url })),
    })
  const run = recorded([
    { type: 'click', x: 100, y: 200, button: 'left', keys: ['SHIFT'] },
    { type: 'drag', path: [{ x: 10, y: 10 }, { x: 20, y: 20 }, { x: 30, y: 41 }] },
    { type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 300 },
    { type: 'keypress', keys: ['CTRL', 'S'] },
    { type: 'goto', url: `${ORIGIN}/cart?x=1#top` },
    { type: 'message', text: 'Saved 2 items.' },
  ])

  test('one tool use per turn, then the final answer, with points at scale 0.5', async () => {
    const { client, server } = await start(anthropicReplayPolicy([run], { scale: 0.5 }))
    let messages: BetaMessageParam[] = [{ role: 'user', content: 'Task: Save the cart.' }]
    const uses: Array<[string, unknown]> = []
    const says: string[] = []
    for (let turn = 0; turn < 20; turn++) {
      const message = await create(client, { messages })
      says.push(...message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])))
      if (message.stop_reason !== 'tool_use') break
      uses.push(...message.content.flatMap((b): Array<[string, unknown]> => (b.type === 'tool_use' ? [[b.name, b.input]] : [])))
      messages = [...messages, { role: 'assistant', content: message.content }, await toolResults(message.content)]
    }
    expect(uses).toEqual([
      ['computer', { action: 'left_click', coordinate: [50, 100], text: 'shift' }],
      ['computer', { action: 'mouse_move', coordinate: [5, 5] }],
      ['computer', { action: 'left_mouse_down' }],
      ['computer', { action: 'mouse_move', coordinate: [10, 10] }],
      ['computer', { action: 'mouse_move', coordinate: [15, 21] }],
      ['computer', { action: 'left_mouse_up' }],
      ['computer', { action: 'scroll', coordinate: [320, 200], scroll_direction: 'down', scroll_amount: 3 }],
      ['computer', { action: 'key', text: 'ctrl+s' }],
      ['goto', { url: '/cart?x=1#top' }],
    ])
    expect(says).toEqual(['Shift-click the first item.', 'Saved 2 items.'])
    expect(server.requests.at(-1)!.reply).toEqual({ answer: 'Saved 2 items.' })
  })

  test('a desktop run scrolls 50 px a click; two-point drags, keys and waits in Claude terms', () => {
    const desktop = recorded(
      [
        { type: 'scroll', x: 10, y: 10, scroll_x: -100, scroll_y: 300 },
        { type: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }] },
        { type: 'keypress', keys: ['Enter'] },
        { type: 'hold_key', keys: ['shift'], ms: 1500 },
        { type: 'wait', ms: 2000 },
        { type: 'triple_click', x: 5, y: 6 },
        { type: 'mouse_down', button: 'left' },
      ],
      null,
    )
    expect(anthropicReplayItems(desktop).map((item) => ('action' in item ? item.action : item.tool))).toEqual([
      { action: 'scroll', coordinate: [10, 10], scroll_direction: 'left', scroll_amount: 2 },
      { action: 'scroll', coordinate: [10, 10], scroll_direction: 'down', scroll_amount: 6 },
      { action: 'left_click_drag', start_coordinate: [1, 2], coordinate: [3, 4] },
      { action: 'key', text: 'Return' },
      { action: 'hold_key', text: 'shift', duration: 1.5 },
      { action: 'wait', duration: 2 },
      { action: 'triple_click', coordinate: [5, 6] },
      { action: 'left_mouse_down' },
    ])
  })

  test('a goal no recorded run matches gets a 400', async () => {
    const { client } = await start(anthropicReplayPolicy([run]), { maxRetries: 0 })
    const error = await rejection(create(client, { messages: [{ role: 'user', content: 'Task: something else' }] }))
    expect(error).toMatchObject({ status: 400 })
    expect(error.message).toContain('no recorded run matches this goal')
  })
})
