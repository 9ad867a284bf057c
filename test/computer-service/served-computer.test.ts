import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, test } from 'vitest'
import type { AgentContext } from '../../src/agents/agent.ts'
import { agentTaskOf } from '../../src/agents/task.ts'
import { serveComputer, type ServedComputer } from '../../src/computer-service/server.ts'
import { sealComputer } from '../../src/computer/sealed.ts'
import { AgentConfig } from '../../src/schema/config.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { RecordingComputer, StepLimitError, TaskAbortedError } from '../../src/trajectory/recording-computer.ts'
import { FakeComputer, TASK } from '../agents/helpers.ts'

/**
 * The task's Computer served to programs outside the harness, over its JSON API and over MCP
 * with the official SDK's client: every call is a recorded step of the recording Computer, with
 * its budget and its stop, and nothing is served without the task's token.
 */
interface Served {
  served: ServedComputer
  recorder: Recorder
  inner: FakeComputer
  abort: AbortController
  thoughts: string[]
}

const open: ServedComputer[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()))
})

async function serve(options: { environment?: 'browser' | 'linux'; maxSteps?: number } = {}): Promise<Served> {
  const inner = new FakeComputer(options.environment ?? 'browser')
  const recorder = new Recorder(mkdtempSync(join(tmpdir(), 'agentest-served-')), 'task-1', null)
  const abort = new AbortController()
  const maxSteps = options.maxSteps ?? 10
  const computer = new RecordingComputer(inner, recorder, { maxSteps, signal: abort.signal })
  const thoughts: string[] = []
  const context: AgentContext = {
    task: agentTaskOf(TASK, { environment: inner.environment, screen: inner.dimensions, maxSteps, timeoutMs: 60_000 }),
    computer: sealComputer(computer),
    signal: abort.signal,
    think: (thought) => {
      thoughts.push(thought)
      recorder.think(thought)
    },
    config: AgentConfig.parse({ name: 'command', options: { command: ['true'] } }),
  }
  const served = await serveComputer(context)
  served.outcome.catch(() => {})
  open.push(served)
  return { served, recorder, inner, abort, thoughts }
}

function api(served: ServedComputer, path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) {
  const token = init.token === undefined ? served.token : init.token
  return fetch(`${served.apiUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}

async function mcpClient(served: ServedComputer): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }))
  return client
}

describe('the JSON API', () => {
  test('serves nothing without the task\'s token', async () => {
    const { served, inner } = await serve()
    for (const token of [null, 'wrong', `${served.token}x`]) {
      const response = await api(served, '/actions', { body: { type: 'click', x: 1, y: 2 }, token })
      expect(response.status).toBe(401)
    }
    expect((await fetch(served.mcpUrl, { method: 'POST', body: '{}' })).status).toBe(401)
    expect(inner.actions).toEqual([])
  })

  test('hands over the goal and the limits, and nothing else of the task', async () => {
    const { served } = await serve()
    const task = await (await api(served, '/task')).json()
    expect(task).toEqual({
      id: TASK.id,
      goal: TASK.task,
      environment: 'browser',
      screen: { width: 1280, height: 800 },
      max_steps: 10,
      timeout_ms: 60_000,
      actions: expect.arrayContaining(['screenshot', 'click', 'type', 'keypress', 'goto', 'back', 'finish']),
    })
  })

  test('each action is a recorded step with its thought; a screenshot is the harness\'s and no step', async () => {
    const { served, recorder, inner, thoughts } = await serve()
    const shot = await api(served, '/screenshot')
    expect(shot.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await shot.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG')
    const clicked = await api(served, '/actions', { body: { type: 'click', x: 10, y: 20, thought: 'the search box' } })
    expect(await clicked.json()).toEqual({ step: 1, did: 'click (10, 20)', url: 'http://shop.test/' })
    const typed = await (await api(served, '/actions', { body: { type: 'type', text: 'laptop' } })).json()
    expect(typed.step).toBe(2)
    expect(inner.actions).toEqual([{ type: 'click', x: 10, y: 20, button: 'left' }, { type: 'type', text: 'laptop' }])
    expect(recorder.steps.map((s) => s.action.type)).toEqual(['click', 'type'])
    expect(thoughts).toEqual(['the search box'])
  })

  test('a bad action is refused with the field named, and a browser action on a desktop is refused', async () => {
    const { served, inner } = await serve()
    const bad = await api(served, '/actions', { body: { type: 'click', x: 'ten', y: 2 } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toMatch(/^x: /)
    const unknown = await api(served, '/actions', { body: { type: 'teleport' } })
    expect(unknown.status).toBe(400)
    const desktop = await serve({ environment: 'linux' })
    const goto = await api(desktop.served, '/actions', { body: { type: 'goto', url: 'http://example.com/' } })
    expect(goto.status).toBe(400)
    expect((await goto.json()).message).toBe('this linux computer has no "goto" action')
    expect([...inner.actions, ...desktop.inner.actions]).toEqual([])
  })

  test('finish settles the run with the answer; a call after it is refused', async () => {
    const { served, inner } = await serve()
    expect((await api(served, '/finish', { body: { answer: 'Cedar' } })).status).toBe(200)
    await expect(served.outcome).resolves.toEqual({ answer: 'Cedar' })
    const late = await api(served, '/actions', { body: { type: 'click', x: 1, y: 1 } })
    expect(late.status).toBe(409)
    expect(await late.json()).toEqual({ error: 'finished', message: 'the run is over: finish was called' })
    expect(inner.actions).toEqual([])
  })

  test('GET /tools gives the tools as a model takes them: each action and finish with its JSON Schema, no $schema, no ±2^53 bounds', async () => {
    const { served } = await serve()
    const answer = await api(served, '/tools')
    expect(answer.status).toBe(200)
    const { tools } = (await answer.json()) as { tools: Array<{ name: string; description: string; parameters: Record<string, unknown> }> }
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['click', 'type', 'keypress', 'goto', 'finish']))
    expect(tools.map((t) => t.name)).not.toContain('screenshot')
    const click = tools.find((t) => t.name === 'click')!
    expect(click.description).toMatch(/^Click at a point/)
    expect(click.parameters).toMatchObject({ type: 'object', required: ['x', 'y'], properties: { x: { type: 'integer' }, y: { type: 'integer' } } })
    const text = JSON.stringify(tools)
    expect(text).not.toContain('$schema')
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER))
    expect(tools.find((t) => t.name === 'finish')!.parameters).toMatchObject({ properties: { answer: {}, usage: {}, model: {} } })
  })

  test('finish may carry the run\'s usage and model; a malformed usage is refused with the field named', async () => {
    const { served } = await serve()
    const bad = await api(served, '/finish', { body: { answer: 'Cedar', usage: { input_tokens: -1, output_tokens: 3 } } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toMatch(/usage\.input_tokens: /)
    expect((await api(served, '/finish', { body: { answer: 'Cedar', usage: { input_tokens: 10, output_tokens: 3 }, model: 'm-1' } })).status).toBe(200)
    await expect(served.outcome).resolves.toEqual({ answer: 'Cedar', usage: { input_tokens: 10, output_tokens: 3 }, model: 'm-1' })
  })

  test('the action past the step budget ends the run, and the agent is told why', async () => {
    const { served, inner } = await serve({ maxSteps: 2 })
    for (const x of [1, 2]) expect((await api(served, '/actions', { body: { type: 'click', x, y: 1 } })).status).toBe(200)
    const third = await api(served, '/actions', { body: { type: 'click', x: 3, y: 1 } })
    expect(third.status).toBe(409)
    expect((await third.json()).message).toMatch(/max_steps \(2\)/)
    await expect(served.outcome).rejects.toBeInstanceOf(StepLimitError)
    expect(inner.actions).toHaveLength(2)
  })
})

describe('MCP, with the official SDK\'s client', () => {
  test('lists the screenshot, one tool per action and finish; the browser-only ones only in a browser', async () => {
    const browser = await mcpClient((await serve()).served)
    const names = (await browser.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(['screenshot', 'click', 'double_click', 'type', 'keypress', 'scroll', 'move', 'drag', 'wait', 'goto', 'back', 'finish']))
    const click = (await browser.listTools()).tools.find((t) => t.name === 'click')!
    expect(click.inputSchema.required).toEqual(['x', 'y'])
    const desktop = await mcpClient((await serve({ environment: 'linux' })).served)
    const desktopNames = (await desktop.listTools()).tools.map((t) => t.name)
    expect(desktopNames).toContain('click')
    expect(desktopNames).not.toContain('goto')
    await Promise.all([browser.close(), desktop.close()])
  })

  test('gives the goal as the server\'s instructions, a screenshot as an image, and acts as recorded steps', async () => {
    const { served, recorder, inner } = await serve()
    const client = await mcpClient(served)
    expect(client.getInstructions()).toContain(`Task: ${TASK.task}`)
    const shot = await client.callTool({ name: 'screenshot', arguments: {} })
    expect(shot.content).toEqual([{ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) }])
    const typed = await client.callTool({ name: 'type', arguments: { text: 'laptop', thought: 'search' } })
    expect(typed.isError).toBeFalsy()
    expect(typed.content).toEqual([{ type: 'text', text: 'step 1: type "laptop" (now at http://shop.test/)' }])
    const bad = await client.callTool({ name: 'click', arguments: { x: 'left' } })
    expect(bad.isError).toBe(true)
    await client.callTool({ name: 'finish', arguments: { answer: 'done' } })
    await expect(served.outcome).resolves.toEqual({ answer: 'done' })
    expect(inner.actions).toEqual([{ type: 'type', text: 'laptop' }])
    expect(recorder.steps).toHaveLength(1)
    await client.close()
  })

  test('a client that calls a tool past the step budget is cut off', async () => {
    const { served, inner } = await serve({ maxSteps: 3 })
    const client = await mcpClient(served)
    const results = []
    for (let i = 0; i < 5; i++) results.push(await client.callTool({ name: 'move', arguments: { x: i, y: i } }))
    expect(results.map((r) => Boolean(r.isError))).toEqual([false, false, false, true, true])
    expect(JSON.stringify(results[3]!.content)).toMatch(/reached max_steps \(3\)/)
    expect(JSON.stringify(results[4]!.content)).toMatch(/the run is over/)
    await expect(served.outcome).rejects.toBeInstanceOf(StepLimitError)
    expect(inner.actions).toHaveLength(3)
    await client.close()
  })

  test('once the task is stopped (its timeout, Ctrl-C), every call is refused', async () => {
    const { served, inner, abort } = await serve()
    const client = await mcpClient(served)
    abort.abort(new Error('the task timed out after 60 s'))
    const after = await client.callTool({ name: 'click', arguments: { x: 1, y: 1 } })
    expect(after.isError).toBe(true)
    expect(JSON.stringify(after.content)).toMatch(/timed out/)
    await expect(served.outcome).rejects.toBeInstanceOf(TaskAbortedError)
    expect(inner.actions).toEqual([])
    await client.close()
  })
})
