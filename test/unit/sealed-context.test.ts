import { describe, expect, test } from 'vitest'
import { isHarnessAgent, type Agent } from '../../src/agents/agent.ts'
import { nearMiss, nop, oracle } from '../../src/agents/builtin.ts'
import { resolveAgent } from '../../src/agents/registry.ts'
import { agentTaskOf } from '../../src/agents/task.ts'
import { sealComputer } from '../../src/computer/sealed.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { RecordingComputer } from '../../src/trajectory/recording-computer.ts'
import { FakeComputer } from '../agents/helpers.ts'
import { walk } from '../data/agents/reach.ts'

/** A browser computer with a Playwright-like page and context behind it, as the real one has. */
function browserBehind(): FakeComputer {
  const computer = new FakeComputer('browser', 'http://127.0.0.1:5000/') as FakeComputer & Record<string, unknown>
  computer.page = { goto: () => undefined, evaluate: () => undefined, request: { fetch: () => 0, get: () => 0, post: () => 0 } }
  computer.context = { newPage: () => undefined }
  return computer
}

function recording(inner: FakeComputer): RecordingComputer {
  return new RecordingComputer(inner, new Recorder('/nonexistent', 't', null), { maxSteps: 5, signal: new AbortController().signal })
}

describe('the sealed Computer', () => {
  test('the walk finds the page, request API and context behind an unsealed recorded Computer', () => {
    const found = walk({ computer: recording(browserBehind()) }).map((f) => f.what)
    expect(found).toEqual(expect.arrayContaining(['a Playwright page', 'an HTTP request API', 'a Playwright context or browser', 'the recorder']))
  })

  test('behind the sealed one there is nothing: no property, prototype or getter leads anywhere', () => {
    const sealed = sealComputer(recording(browserBehind()))
    expect(walk({ computer: sealed })).toEqual([])
    expect(Object.isFrozen(sealed)).toBe(true)
    expect(Object.getPrototypeOf(sealed)).toBe(Object.prototype)
    expect((sealed as unknown as Record<string, unknown>).inner).toBeUndefined()
  })

  test('it keeps the protocol: actions go through the recorder, browser extras exist only in a browser', async () => {
    const inner = browserBehind()
    const sealed = sealComputer(recording(inner))
    await sealed.click(10, 20)
    await sealed.goto!('http://127.0.0.1:5000/x')
    expect(inner.actions).toEqual([{ type: 'click', x: 10, y: 20, button: 'left' }, { type: 'goto', url: 'http://127.0.0.1:5000/x' }])
    expect(sealed.dimensions).toEqual(inner.dimensions)
    const desktop = sealComputer(recording(new FakeComputer('linux')))
    expect(desktop.goto).toBeUndefined()
    expect(desktop.environment).toBe('linux')
  })
})

describe('the agent task', () => {
  test('holds the goal and the limits, frozen; no title, checks, solution or file', () => {
    const task = agentTaskOf(
      { id: 'omnizon-9', task: 'Buy the cheapest kettle.' },
      { environment: 'browser', screen: { width: 1280, height: 800 }, maxSteps: 30, timeoutMs: 180_000 },
    )
    expect(task).toEqual({ id: 'omnizon-9', goal: 'Buy the cheapest kettle.', environment: 'browser', screen: { width: 1280, height: 800 }, max_steps: 30, timeout_ms: 180_000 })
    expect(Object.isFrozen(task) && Object.isFrozen(task.screen)).toBe(true)
  })
})

describe('harness access goes by identity, never by name', () => {
  test('only agentest\'s own objects are harness agents', async () => {
    expect([oracle, nearMiss].every(isHarnessAgent)).toBe(true)
    expect(isHarnessAgent(nop)).toBe(false)
    expect(isHarnessAgent(await resolveAgent('replay', {}))).toBe(true)
    expect(isHarnessAgent(await resolveAgent('image', {}))).toBe(true)
    expect(isHarnessAgent(await resolveAgent('openai-cua', {}))).toBe(false)
    // A copy that claims to be one (same name, same mark, same code) is not one.
    const impostor = { ...oracle } as unknown as Agent
    expect(isHarnessAgent(impostor)).toBe(false)
  })
})
