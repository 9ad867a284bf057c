import sharp from 'sharp'
import { afterEach, describe, expect, test } from 'vitest'
import { byTurn, startModelServer, type ModelCall, type ModelServer, type Policy } from '../../fixtures/model-server/index.ts'
import { openaiChat } from '../../src/agents/openai-chat/index.ts'
import { BlockedUrlError } from '../../src/trajectory/recording-computer.ts'
import { agentContext, FakeComputer, rejection } from './helpers.ts'

let server: ModelServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function run(policy: Policy, agentOptions: Record<string, unknown> = {}, computer = new FakeComputer()) {
  server = await startModelServer({ policy })
  const context = agentContext({ computer, baseUrl: server.url, agentOptions })
  return { server, computer, context, outcome: openaiChat.run(context) }
}

type Message = { role: string; content: unknown; tool_call_id?: string }
const messages = (call: ModelCall | undefined) => (call?.body.messages ?? []) as Message[]
const parts = (message: Message | undefined) => (message?.content ?? []) as Array<{ type: string; text?: string; image_url?: { url: string } }>

describe('openai-chat: a tool-calling loop over Chat Completions', () => {
  test('acts through tools, observes after each turn, and finishes with answer', async () => {
    const { server, computer, context, outcome } = await run(
      byTurn([
        { thought: 'Clicking the search box.', actions: [{ type: 'click', x: 595, y: 30 }] },
        { actions: [{ type: 'type', text: 'laptop' }, { type: 'keypress', keys: ['ENTER'] }] },
        { actions: [{ type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 300 }, { type: 'goto', url: '/cart' }, { type: 'back' }] },
        { answer: 'The MacBook Air.' },
      ]),
    )
    const { answer, usage } = await outcome
    expect(answer).toBe('The MacBook Air.')
    expect(computer.actions).toEqual([
      { type: 'click', x: 595, y: 30, button: 'left' },
      { type: 'type', text: 'laptop' },
      { type: 'keypress', keys: ['ENTER'] },
      { type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 300 },
      { type: 'goto', url: 'http://shop.test/cart' },
      { type: 'back' },
    ])
    expect(context.thoughts).toEqual(['Clicking the search box.'])
    expect(usage?.input_tokens).toBeGreaterThan(0)

    const first = server.requests[0]!
    expect(first.model).toBe('scripted-model')
    expect(first.goal).toBe(`Task: ${context.task.goal}`)
    expect(first.url).toBe('http://shop.test/')
    const tools = (first.body.tools as Array<{ function: { name: string; parameters: unknown } }>).map((t) => t.function.name)
    expect(tools).toEqual(['click', 'double_click', 'type', 'keypress', 'scroll', 'move', 'drag', 'wait', 'goto', 'back', 'answer'])
    expect((first.body.tools as Array<{ function: { name: string; parameters: unknown } }>)[0]!.function.parameters).toMatchObject({
      type: 'object',
      required: ['x', 'y'],
    })
    const second = messages(server.requests[1])
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user'])
    expect(second[3]).toMatchObject({ role: 'tool', content: 'done' })
    expect(parts(second[4]).map((p) => p.type)).toEqual(['text', 'image_url'])
  })

  test('a bad tool call goes back as a tool error, and the model can recover', async () => {
    const { server, computer, outcome } = await run(
      byTurn([{ calls: [{ name: 'click', arguments: '{"x": 10, ' }] }, { calls: [{ name: 'click', arguments: { x: 'ten', y: 5 } }] }, { answer: 'ok' }]),
    )
    expect((await outcome).answer).toBe('ok')
    expect(computer.actions).toEqual([])
    const tool = (i: number) => messages(server.requests[i]).filter((m) => m.role === 'tool').at(-1)?.content
    expect(tool(1)).toMatch(/^error: click: the arguments are not valid JSON/)
    expect(tool(2)).toBe('error: click.x: Invalid input: expected number, received string')
  })

  test('past max_tool_errors the task errors', async () => {
    const { outcome } = await run(() => ({ calls: [{ name: 'fly', arguments: {} }] }), { max_tool_errors: 1 })
    expect((await rejection(outcome)).message).toMatch(/the model made 2 invalid tool calls .*unknown tool "fly"/)
  })

  test('a reply without a tool call gets a nudge (and counts as an error)', async () => {
    const { server, outcome } = await run(byTurn([{ say: 'I will now search.' }, { answer: 'ok' }]))
    expect((await outcome).answer).toBe('ok')
    expect(parts(messages(server.requests[1]).at(-1))[0]?.text).toMatch(/call answer/)
  })

  test('observation axtree sends the accessibility tree instead of the screenshot; both sends both', async () => {
    const axtree = await run(byTurn([{ answer: 'ok' }]), { observation: 'axtree' })
    await axtree.outcome
    expect(parts(messages(axtree.server.requests[0])[1]).map((p) => p.text ?? p.type)).toEqual([
      `Task: ${axtree.context.task.goal}`,
      'URL: http://shop.test/',
      'Accessibility tree:\n- searchbox "Search Omnizon"\n- button "Go"',
    ])
    await server?.close()
    const both = await run(byTurn([{ answer: 'ok' }]), { observation: 'both' })
    await both.outcome
    expect(parts(messages(both.server.requests[0])[1]).map((p) => p.type)).toEqual(['text', 'text', 'image_url', 'text'])
  })

  test('a desktop gets screenshots whatever the observation, and no browser tools', async () => {
    const { server, outcome } = await run(byTurn([{ answer: 'ok' }]), { observation: 'axtree' }, new FakeComputer('linux'))
    await outcome
    expect(parts(messages(server.requests[0])[1]).map((p) => p.type)).toEqual(['text', 'image_url'])
    const tools = (server.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)
    expect(tools).not.toContain('goto')
  })

  test('scaled screenshots: the model sees the smaller image, its coordinates map back', async () => {
    const { server, computer, outcome } = await run(
      byTurn([{ actions: [{ type: 'click', x: 297.6, y: 15 }, { type: 'scroll', x: 320, y: 200, scroll_x: 0, scroll_y: 150 }] }, { answer: 'ok' }]),
      { screenshot_fit: { width: 640, height: 400 } },
    )
    await outcome
    expect(await sharp(server.requests[0]!.screenshot!).metadata()).toMatchObject({ width: 640, height: 400 })
    // 297.6 image pixels at half size is 595.2 screen pixels: mapped first, rounded once.
    expect(computer.actions).toEqual([
      { type: 'click', x: 595, y: 30, button: 'left' },
      { type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 300 },
    ])
    expect((server.requests[0]!.body.messages as Array<{ content: unknown }>)[0]!.content).toContain('640x400 pixels')
  })

  test.each([
    // The same two points (screen 595,30 and a drag to 1279,799) and a 300 px scroll, said four ways.
    ['image', { x: 446.25, y: 22.5 }, { x: 959.25, y: 599.25 }, 225, '960x600 pixels; tool coordinates and scroll distances are pixels of the screenshot'],
    ['screen', { x: 595, y: 30 }, { x: 1279, y: 799 }, 300, 'The screen is 1280x800 pixels (the screenshots may be smaller)'],
    ['relative_1000', { x: 464.84375, y: 37.5 }, { x: 1000, y: 1000 }, 375, 'from 0 to 1000 on each axis'],
    ['normalized', { x: 0.46484375, y: 0.0375 }, { x: 0.99921875, y: 0.99875 }, 0.375, 'fractions from 0 to 1 on each axis'],
  ])('coordinates %s: the model\'s points map exactly to screen pixels, and the prompt says the convention', async (convention, point, corner, scroll, said) => {
    const { server, computer, outcome } = await run(
      byTurn([
        {
          actions: [
            { type: 'click', ...point },
            { type: 'drag', path: [point, corner] },
            { type: 'scroll', ...point, scroll_x: 0, scroll_y: scroll },
          ],
        },
        { answer: 'ok' },
      ]),
      { screenshot_fit: { width: 960, height: 600 }, coordinates: convention },
    )
    await outcome
    expect(await sharp(server.requests[0]!.screenshot!).metadata()).toMatchObject({ width: 960, height: 600 })
    expect(computer.actions).toEqual([
      { type: 'click', x: 595, y: 30, button: 'left' },
      { type: 'drag', path: [{ x: 595, y: 30 }, { x: 1279, y: 799 }] },
      { type: 'scroll', x: 595, y: 30, scroll_x: 0, scroll_y: 300 },
    ])
    expect((server.requests[0]!.body.messages as Array<{ content: unknown }>)[0]!.content).toContain(said)
  })

  test('a point outside the screen is kept inside it; an unknown convention is one line', async () => {
    const { computer, outcome } = await run(byTurn([{ actions: [{ type: 'click', x: 1.4, y: -0.2 }] }, { answer: 'ok' }]), { coordinates: 'normalized' })
    await outcome
    expect(computer.actions).toEqual([{ type: 'click', x: 1279, y: 0, button: 'left' }])
    await expect(run(byTurn([{ answer: 'ok' }]), { coordinates: 'percent' }).then((r) => r.outcome)).rejects.toThrow(/coordinates/)
  })

  test('action_format ui-tars: actions in the reply\'s text, in the model\'s convention, finished gives the answer', async () => {
    const { server, computer, context, outcome } = await run(
      byTurn([
        { say: "Thought: The search box.\nAction: click(start_box='<|box_start|>(465,38)<|box_end|>')" },
        { say: "Thought: Typing.\nAction: type(content='laptop\\n')" },
        { say: "Action: tap(start_box='(1,2)')" },
        { say: "Thought: Done.\nAction: finished(content='The MacBook Air.')" },
      ]),
      { action_format: 'ui-tars', coordinates: 'relative_1000' },
    )
    expect((await outcome).answer).toBe('The MacBook Air.')
    expect(computer.actions).toEqual([
      { type: 'click', x: 595, y: 30, button: 'left' },
      { type: 'type', text: 'laptop' },
      { type: 'keypress', keys: ['Enter'] },
    ])
    expect(context.thoughts).toEqual(['The search box.', 'Typing.', 'Done.'])
    const first = server.requests[0]!
    expect(first.body.tools).toBeUndefined()
    const system = messages(first)[0]!.content as string
    expect(system).toContain("click(start_box='(x,y)')")
    expect(system).toContain("finished(content='...')")
    expect(system).toContain('from 0 to 1000 on each axis')
    // The unknown action went back as an error, and the model carried on.
    const afterError = messages(server.requests[3])
    expect(parts(afterError.at(-1)).map((p) => p.text)).toEqual(['error: unknown action "tap" (tap(start_box=\'(1,2)\')). Answer with "Thought: ..." and "Action: ...".'])
  })

  test('action_format ui-tars: call_user ends the task with an error, since nobody answers', async () => {
    const { outcome } = await run(byTurn([{ say: 'Thought: I need a password.\nAction: call_user()' }]), { action_format: 'ui-tars' })
    await expect(outcome).rejects.toThrow('the model called call_user()')
  })

  test('only the newest screenshots stay in the history', async () => {
    const { server, outcome } = await run(
      byTurn([...Array.from({ length: 4 }, () => ({ actions: [{ type: 'wait', ms: 0 }] })), { answer: 'ok' }]),
      { keep_screenshots: 2 },
    )
    await outcome
    const last = messages(server.requests[4])
    const images = last.flatMap((m) => (m.role === 'user' ? parts(m) : [])).filter((p) => p.type === 'image_url')
    expect(images).toHaveLength(2)
    expect(JSON.stringify(last)).toContain('(an earlier screenshot, removed)')
  })

  test('the blocklist applies to the chat agent too', async () => {
    const { outcome } = await run(byTurn([{ actions: [{ type: 'goto', url: '/account/orders' }] }]), { blocklist: ['/\\/account/'] })
    expect(await rejection(outcome)).toBeInstanceOf(BlockedUrlError)
  })

  test('the model is required, and options are checked', async () => {
    server = await startModelServer({ policy: [] })
    const noModel = agentContext({ computer: new FakeComputer(), baseUrl: server.url, model: null })
    expect((await rejection(openaiChat.run(noModel))).message).toBe(
      'agent.model: openai-chat needs a model (set agent.model or AGENTEST_MODEL)',
    )
    const bad = agentContext({ computer: new FakeComputer(), baseUrl: server.url, agentOptions: { observation: 'smell' } })
    expect((await rejection(openaiChat.run(bad))).message).toMatch(/^agent\.options\.observation: Invalid option/)
  })
})
