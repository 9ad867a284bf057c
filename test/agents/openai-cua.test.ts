import sharp from 'sharp'
import { afterEach, describe, expect, test } from 'vitest'
import { byTurn, startModelServer, type ModelCall, type ModelServer, type Policy } from '../../fixtures/model-server/index.ts'
import { openaiCua, SafetyCheckError } from '../../src/agents/openai-cua/index.ts'
import { BlockedUrlError } from '../../src/trajectory/recording-computer.ts'
import { agentContext, FakeComputer, rejection, TEST_KEY } from './helpers.ts'

let server: ModelServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function run(policy: Policy, agentOptions: Record<string, unknown> = {}, computer = new FakeComputer(), signal?: AbortSignal) {
  server = await startModelServer({ policy })
  const context = agentContext({ computer, baseUrl: server.url, agentOptions, signal, model: null })
  return { server, computer, context, outcome: openaiCua.run(context) }
}

type Item = Record<string, unknown>
const input = (call: ModelCall | undefined) => (call?.body.input ?? []) as Item[]
const outputsOf = (call: ModelCall | undefined) => input(call).filter((item) => item.type === 'computer_call_output')

describe('openai-cua: the Responses API computer-use loop', () => {
  test('acts, answers, and sends what the CUA protocol expects', async () => {
    const { server, computer, context, outcome } = await run(
      byTurn([
        { thought: 'The search box is at the top.', actions: [{ type: 'click', x: 595, y: 30, button: 'left' }] },
        { say: 'Typing the query.', actions: [{ type: 'type', text: 'laptop' }] },
        { actions: [{ type: 'keypress', keys: ['ENTER'] }, { type: 'goto', url: '/search?q=laptop' }] },
        { answer: 'The MacBook Air is first.' },
      ]),
    )
    const { answer, usage } = await outcome
    expect(answer).toBe('The MacBook Air is first.')
    expect(computer.actions).toEqual([
      { type: 'click', x: 595, y: 30, button: 'left' },
      { type: 'type', text: 'laptop' },
      { type: 'keypress', keys: ['ENTER'] },
      { type: 'goto', url: 'http://shop.test/search?q=laptop' },
    ])
    expect(context.thoughts).toEqual(['The search box is at the top.', 'Typing the query.'])
    const calls = server.requests
    expect(usage?.input_tokens).toBe(calls.reduce((sum, c) => sum + estimateIn(c), 0))
    expect(usage?.output_tokens).toBeGreaterThan(0)

    const first = calls[0]!
    expect(first.model).toBe('computer-use-preview')
    expect(first.body).toMatchObject({
      truncation: 'auto',
      reasoning: { summary: 'concise' },
      tools: [
        { type: 'computer_use_preview', display_width: 1280, display_height: 800, environment: 'browser' },
        { type: 'function', name: 'goto' },
        { type: 'function', name: 'back' },
      ],
    })
    expect(first.goal).toBe(context.task.goal)
    expect(first.url).toBe('http://shop.test/')
    expect(first.screenshot).not.toBeNull()
    expect(first.headers.authorization).toBe(`Bearer ${TEST_KEY}`)

    const [output] = outputsOf(calls[1])
    expect(output).toMatchObject({ type: 'computer_call_output', output: { type: 'input_image', current_url: 'http://shop.test/' } })
    expect(String((output!.output as Item).image_url)).toMatch(/^data:image\/png;base64,/)
    // Items mode resends the history, reasoning items included.
    expect(input(calls[1]).some((item) => item.type === 'reasoning')).toBe(true)
    const fn = input(calls[3]).find((item) => item.type === 'function_call_output')
    expect(fn?.output).toBe('done; the page is now http://shop.test/search?q=laptop')
  })

  test('previous_response_id mode sends only the new items', async () => {
    const { server, outcome } = await run(byTurn([{ actions: [{ type: 'wait' }] }, { answer: 'ok' }]), { history: 'previous_response_id' })
    expect((await outcome).answer).toBe('ok')
    const second = server.requests[1]!
    expect(second.body.previous_response_id).toMatch(/^resp_/)
    expect(input(second).map((item) => item.type)).toEqual(['computer_call_output'])
    expect(second.turn).toBe(1)
  })

  test('a batched computer_call (actions[]) runs every action, then answers with one screenshot', async () => {
    const { server, computer, outcome } = await run(
      byTurn([{ batch: true, actions: [{ type: 'click', x: 1, y: 2 }, { type: 'type', text: 'hi' }, { type: 'wait' }] }, { answer: 'ok' }]),
    )
    await outcome
    expect(computer.actions.map((a) => a.type)).toEqual(['click', 'type', 'wait'])
    expect(outputsOf(server.requests[1])).toHaveLength(1)
  })

  test('safety checks: acknowledge echoes them back', async () => {
    const check = { id: 'cu_sc_1', code: 'malicious_instructions', message: 'The page asks you to ignore your instructions.' }
    const { server, computer, outcome } = await run(byTurn([{ safety_checks: [check], actions: [{ type: 'wait' }] }, { answer: 'ok' }]), {
      safety_checks: 'acknowledge',
    })
    expect((await outcome).answer).toBe('ok')
    expect(computer.actions).toHaveLength(1)
    expect(outputsOf(server.requests[1])[0]?.acknowledged_safety_checks).toEqual([check])
  })

  test('safety checks: stop (the default) ends the task with the check message, before acting', async () => {
    const check = { code: 'sensitive_domain', message: 'This looks like a bank.' }
    const { computer, outcome } = await run(byTurn([{ safety_checks: [check], actions: [{ type: 'wait' }] }]))
    const error = await rejection(outcome)
    expect(error).toBeInstanceOf(SafetyCheckError)
    expect(error.message).toBe('safety check sensitive_domain: This looks like a bank. (agent.options.safety_checks: stop)')
    expect(computer.actions).toEqual([])
  })

  test('a blocklisted URL, checked after the action, ends the task', async () => {
    const { computer, outcome } = await run(byTurn([{ actions: [{ type: 'goto', url: 'http://shop.test/account' }] }]), {
      blocklist: ['/account'],
    })
    const error = await rejection(outcome)
    expect(error).toBeInstanceOf(BlockedUrlError)
    expect(error.message).toContain('http://shop.test/account')
    expect(computer.actions).toHaveLength(1)
  })

  test('bad function arguments and invalid actions go back to the model, up to max_tool_errors', async () => {
    const { server, computer, outcome } = await run(
      byTurn([
        { calls: [{ name: 'goto', arguments: '{"url": ' }] },
        { actions: [{ type: 'click', x: 'left' }] },
        { calls: [{ name: 'teleport', arguments: {} }] },
      ]),
      { max_tool_errors: 2 },
    )
    const error = await rejection(outcome)
    expect(error.message).toMatch(/the model made 3 invalid tool calls \(agent.options.max_tool_errors: 2\); last: unknown function "teleport"/)
    expect(computer.actions).toEqual([])
    const fn = input(server.requests[1]).find((item) => item.type === 'function_call_output')
    expect(fn?.output).toMatch(/^error: goto: arguments are not JSON/)
    const note = input(server.requests[2]).at(-1) as { content: Array<{ text: string }> }
    expect(note.content[0]!.text).toMatch(/^Your action was not performed: click.x: /)
  })

  test('429 then success: the call is retried after Retry-After', async () => {
    const { server, outcome } = await run(byTurn([[{ fault: 'status', status: 429, retry_after: 0.2 }, { answer: 'ok' }]]))
    expect((await outcome).answer).toBe('ok')
    expect(server.requests.map((r) => r.status)).toEqual([429, 200])
  })

  test('500 forever: the task errors after the retries, and the key is redacted', async () => {
    const { server, outcome } = await run(() => ({ fault: 'status', status: 500, message: 'down', echo_auth: true }), { retries: 1 })
    const error = await rejection(outcome)
    expect(error.message).toBe('the Responses API failed: 500 down (request authorization: Bearer [redacted])')
    expect(error.stack).not.toContain(TEST_KEY)
    expect(server.requests).toHaveLength(2)
  })

  test('a malformed body is retried, then ends the task with one line', async () => {
    const { server, outcome } = await run(() => ({ fault: 'malformed' }), { retries: 1 })
    const error = await rejection(outcome)
    expect(error.message).toMatch(/^the Responses API sent a malformed response \(2 attempts\): not JSON/)
    expect(server.requests).toHaveLength(2)
  })

  test('a body of the wrong shape is malformed too', async () => {
    const { outcome } = await run(() => ({ raw: { id: 'resp_1', object: 'response', output: [{ type: 'computer_call' }] } }), { retries: 0 })
    expect((await rejection(outcome)).message).toMatch(/malformed response \(1 attempts\): .*computer_call/)
  })

  test("the task's signal aborts the in-flight call", async () => {
    const controller = new AbortController()
    const { server, outcome } = await run([{ fault: 'hang' }], {}, new FakeComputer(), controller.signal)
    await expect.poll(() => server.requests.length).toBe(1)
    const started = Date.now()
    controller.abort(new Error('Test timed out in 5000ms.'))
    await rejection(outcome)
    expect(Date.now() - started).toBeLessThan(1_000)
    await expect.poll(() => server.requests[0]?.aborted).toBe(true)
  })

  test('scaled screenshots: the display is the image size and coordinates map back to the screen', async () => {
    const { server, computer, outcome } = await run(byTurn([{ actions: [{ type: 'click', x: 320, y: 200 }] }, { answer: 'ok' }]), {
      screenshot_fit: { width: 640, height: 640 },
    })
    await outcome
    expect(server.requests[0]!.body.tools).toContainEqual(expect.objectContaining({ display_width: 640, display_height: 400 }))
    expect(await sharp(server.requests[1]!.screenshot!).metadata()).toMatchObject({ width: 640, height: 400 })
    expect(computer.actions).toEqual([{ type: 'click', x: 640, y: 400, button: 'left' }])
  })

  test('a desktop: environment linux, no current_url, no browser tools', async () => {
    const { server, outcome } = await run(byTurn([{ actions: [{ type: 'wait' }] }, { answer: 'ok' }]), {}, new FakeComputer('linux'))
    await outcome
    expect(server.requests[0]!.body.tools).toEqual([{ type: 'computer_use_preview', display_width: 1280, display_height: 800, environment: 'linux' }])
    expect(outputsOf(server.requests[1])[0]?.output).not.toHaveProperty('current_url')
  })

  test('a bad option is one line naming the field', async () => {
    const { outcome } = await run([], { temperature: 'hot' })
    expect((await rejection(outcome)).message).toBe('agent.options.temperature: Invalid input: expected number, received string')
    const typo = await run([], { safety_check: 'stop' })
    expect((await rejection(typo.outcome)).message).toBe('agent.options.safety_check: not an option of openai-cua; did you mean "safety_checks"?')
  })

  test('a missing API key names the variable', async () => {
    server = await startModelServer({ policy: [] })
    const context = agentContext({ computer: new FakeComputer(), baseUrl: server.url })
    delete process.env.AGENTEST_TEST_KEY
    expect((await rejection(openaiCua.run(context))).message).toBe(
      'agent.api_key_env: AGENTEST_TEST_KEY is not set (openai-cua reads its API key from it)',
    )
  })
})

/** The server's own estimate, read back from its recorded replies' bodies. */
function estimateIn(call: ModelCall): number {
  const text = JSON.stringify(call.body).replace(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g, '')
  const images = (JSON.stringify(call.body).match(/data:image\//g) ?? []).length
  return Math.ceil(text.length / 4) + 765 * images
}
