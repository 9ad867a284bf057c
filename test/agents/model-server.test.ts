import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterEach, describe, expect, test } from 'vitest'
import { byTurn, startModelServer, startScriptedServer, type ModelServer, type Policy } from '../../fixtures/model-server/index.ts'
import { blankScreenshot, rejection } from './helpers.ts'

let server: ModelServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function start(policy: Policy): Promise<{ server: ModelServer; client: OpenAI }> {
  server = await startModelServer({ policy })
  return { server, client: new OpenAI({ apiKey: 'sk-test-server', baseURL: server.url, maxRetries: 2 }) }
}

const goal = (text: string) => [{ role: 'user' as const, content: [{ type: 'input_text' as const, text }] }]

describe('the scripted model server (a test double) speaks OpenAI to the real client', () => {
  test('Responses: a turn becomes reasoning, computer_call, function_call and message items, with usage', async () => {
    const { client } = await start([
      {
        thought: 'the search box is at the top',
        actions: [{ type: 'click', x: 10, y: 20, button: 'left' }, { type: 'goto', url: '/cart' }],
        safety_checks: [{ code: 'malicious_instructions', message: 'check this' }],
        answer: 'done',
      },
    ])
    const response = await client.responses.create({ model: 'computer-use-preview', input: goal('buy a laptop') })
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'computer_call', 'function_call', 'message'])
    const call = response.output[1]
    expect(call).toMatchObject({ action: { type: 'click', x: 10, y: 20 }, pending_safety_checks: [{ code: 'malicious_instructions', message: 'check this' }] })
    expect(response.output[2]).toMatchObject({ name: 'goto', arguments: '{"url":"/cart"}' })
    expect(response.output_text).toBe('done')
    expect(response.usage?.input_tokens).toBeGreaterThan(0)
    expect(response.usage?.output_tokens).toBeGreaterThan(0)
  })

  test('Chat Completions: actions become tool calls, the answer an `answer` call', async () => {
    const { client, server } = await start([{ thought: 'typing', actions: [{ type: 'type', text: 'laptop' }], answer: 'MacBook' }])
    const completion = await client.chat.completions.create({ model: 'local', messages: [{ role: 'user', content: 'Task: go' }] })
    const message = completion.choices[0]!.message
    expect(message.content).toBe('typing')
    expect(message.tool_calls?.map((c) => (c.type === 'function' ? [c.function.name, c.function.arguments] : null))).toEqual([
      ['type', '{"text":"laptop"}'],
      ['answer', '{"answer":"MacBook"}'],
    ])
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0)
    expect(server.requests[0]).toMatchObject({ endpoint: 'chat', goal: 'Task: go', turn: 0, model: 'local' })
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-server')
  })

  test('models are listed', async () => {
    const { client } = await start([])
    const page = await client.models.list()
    expect(page.data.map((m) => m.id)).toEqual(['scripted'])
  })

  test('turns are counted per conversation, whether the history is resent or chained', async () => {
    const { client, server } = await start(byTurn([{ actions: [{ type: 'wait' }] }, { actions: [{ type: 'wait' }] }, { answer: 'ok' }]))
    const png = await blankScreenshot()
    const image = `data:image/png;base64,${png.toString('base64')}`
    // Resent history: the ids of earlier items tell the turn.
    const first = await client.responses.create({ model: 'm', input: goal('task A') })
    const output = { type: 'computer_call_output', call_id: (first.output[0] as { call_id: string }).call_id, output: { type: 'input_image', image_url: image, current_url: 'http://shop.test/a' } }
    const input = [...goal('task A'), ...first.output, output] as OpenAI.Responses.ResponseInput
    await client.responses.create({ model: 'm', input })
    // Chained: previous_response_id carries the history.
    const chained = await client.responses.create({ model: 'm', input: goal('task B') })
    const next = await client.responses.create({ model: 'm', previous_response_id: chained.id, input: [] })
    expect(next.output).toHaveLength(1)
    expect(server.requests.map((r) => [r.goal, r.turn])).toEqual([
      ['task A', 0],
      ['task A', 1],
      ['task B', 0],
      ['task B', 1],
    ])
    expect(server.requests[1]!.url).toBe('http://shop.test/a')
    expect(server.requests[1]!.screenshot?.equals(png)).toBe(true)
    expect(server.requests[0]!.conversation).not.toBe(server.requests[2]!.conversation)
  })

  test('429 with Retry-After, then success: the client waits and retries', async () => {
    const { client, server } = await start([{ fault: 'status', status: 429, retry_after: 0.3 }, { answer: 'ok' }])
    const response = await client.responses.create({ model: 'm', input: goal('x') })
    expect(response.output_text).toBe('ok')
    expect(server.requests.map((r) => [r.status, r.attempt])).toEqual([
      [429, 0],
      [200, 1],
    ])
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(280)
  })

  test('500 forever: the client gives up after its retries, with the scripted message', async () => {
    const { client, server } = await start(() => ({ fault: 'status', status: 500, message: 'boom', echo_auth: true }))
    const error = await rejection(client.responses.create({ model: 'm', input: goal('x') }))
    expect(error).toBeInstanceOf(OpenAI.InternalServerError)
    expect(error.message).toContain('boom (request authorization: Bearer sk-test-server)')
    expect(server.requests).toHaveLength(3)
  })

  test('a malformed body fails to parse', async () => {
    const { client } = await start([{ fault: 'malformed' }])
    expect(await rejection(client.responses.create({ model: 'm', input: goal('x') }))).toBeInstanceOf(SyntaxError)
  })

  test('a hung call ends when the client aborts, and the server records it', async () => {
    const { client, server } = await start([{ fault: 'hang' }])
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const error = await rejection(client.responses.create({ model: 'm', input: goal('x') }, { signal: controller.signal }))
    expect(error).toBeInstanceOf(OpenAI.APIUserAbortError)
    await expect.poll(() => server.requests[0]?.aborted).toBe(true)
  })

  test('a delayed reply beyond the client timeout is retried', async () => {
    const { client, server } = await start([{ delay_ms: 2_000, answer: 'late' }, { answer: 'on time' }])
    const response = await client.responses.create({ model: 'm', input: goal('x') }, { timeout: 300 })
    expect(response.output_text).toBe('on time')
    await expect.poll(() => server.requests[0]?.aborted).toBe(true)
  })

  test('an exhausted queue is a 500 that says so', async () => {
    const { client } = await start([{ answer: 'only one' }])
    await client.responses.create({ model: 'm', input: goal('x') })
    const error = await rejection(client.responses.create({ model: 'm', input: goal('x') }, { maxRetries: 0 }))
    expect(error.message).toContain('the script is exhausted')
  })

  test("a policy's invalid reply is a 500 that says so", async () => {
    // A policy written in plain JS could return anything; the server validates it.
    const { client } = await start(() => JSON.parse('{"fault": "status", "status": 200}'))
    const error = await rejection(client.responses.create({ model: 'm', input: goal('x') }, { maxRetries: 0 }))
    expect(error.message).toContain("the policy's reply is invalid")
  })
})

describe('one scripted server process answers the OpenAI and the Anthropic APIs side by side', () => {
  test('each SDK gets its own shapes from its own policy, and unknown routes are refused in the caller’s shape', async () => {
    const both = await startScriptedServer({ openai: [{ answer: 'from the OpenAI policy' }], anthropic: [{ answer: 'from the Anthropic policy' }] })
    try {
      const openai = new OpenAI({ apiKey: 'sk-test-server', baseURL: both.openaiUrl, maxRetries: 0 })
      const claude = new Anthropic({ apiKey: 'sk-ant-test', baseURL: both.url, maxRetries: 0 })
      const response = await openai.responses.create({ model: 'm', input: goal('buy a laptop') })
      const message = await claude.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'buy a laptop' }] })
      expect(response.output_text).toBe('from the OpenAI policy')
      expect(message.content).toEqual([{ type: 'text', text: 'from the Anthropic policy' }])
      expect(both.requests.openai.map((call) => call.endpoint)).toEqual(['responses'])
      expect(both.requests.anthropic.map((call) => call.goal)).toEqual(['buy a laptop'])

      const asOpenAI = await fetch(`${both.url}/v1/nowhere`)
      expect([asOpenAI.status, await asOpenAI.json()]).toMatchObject([404, { error: { code: 'not_found' } }])
      const asAnthropic = await fetch(`${both.url}/v1/nowhere`, { headers: { 'anthropic-version': '2023-06-01' } })
      expect([asAnthropic.status, await asAnthropic.json()]).toMatchObject([404, { type: 'error', error: { type: 'not_found_error' } }])
    } finally {
      await both.close()
    }
  })
})
