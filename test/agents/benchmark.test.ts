import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  anthropicReplayPolicy,
  findRecorded,
  recordedTurn,
  replayPolicy,
  startAnthropicServer,
  startModelServer,
  uiTarsReplayPolicy,
  type AnthropicServer,
  type ModelCall,
  type ModelServer,
  type ReplyInput,
} from '../../fixtures/model-server/index.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { runBenchmark, type BenchmarkRun } from '../e2e/run-benchmark.ts'
import { agentEnv, E2E_KEY, filesHolding, taskFiles } from './benchmark-helpers.ts'

/**
 * End to end: real benchmark processes drive the model agents against the scripted server (a
 * test double) in this process. The oracle's recorded actions are served back as the "model's",
 * and the tasks' own checks decide, as for any agent. Desktop tasks: see desktop.test.ts.
 */
const runs: BenchmarkRun[] = []
let oracle: TestCaseRun[] = []
let server: ModelServer | null = null
let anthropic: AnthropicServer | null = null

async function bench(args: string[], env: Record<string, string> = {}): Promise<BenchmarkRun> {
  const run = await runBenchmark(args, env)
  runs.push(run)
  return run
}

function byId(run: BenchmarkRun): Record<string, TestCaseRun> {
  return Object.fromEntries(run.results.map((r) => [r.id, r]))
}

/** Which recorded task a call belongs to ('other' for tasks not recorded). */
const taskOf = (call: ModelCall) => findRecorded(oracle, call.goal)?.id ?? 'other'
const callsOf = (task: string) => (server?.requests ?? []).filter((call) => taskOf(call) === task)

async function serve(policy: (call: ModelCall) => ReplyInput): Promise<string> {
  await server?.close()
  server = await startModelServer({ policy })
  return server.url
}

/** An action with a goto URL reduced to its path. */
const samePage = ({ action }: TestCaseRun['trajectory'][number]) =>
  action.type === 'goto' ? { ...action, url: new URL(action.url).pathname + new URL(action.url).search } : action

const oracleActions = (id: string) =>
  oracle.find((r) => r.id === id)!.trajectory.map((s) => s.action.type)

beforeAll(async () => {
  const recorded = await bench(taskFiles(1, 3, 5, 7))
  oracle = recorded.results
  expect(oracle.map((r) => [r.id, r.status]).sort()).toEqual([
    ['omnizon-1', 'passed'],
    ['omnizon-3', 'passed'],
    ['omnizon-5', 'passed'],
    ['omnizon-7', 'passed'],
  ])
}, 300_000)

afterAll(async () => {
  await server?.close()
  await anthropic?.close()
})

describe('model agents on Omnizon, end to end', { timeout: 300_000 }, () => {
  test('openai-cua solves tasks from served oracle actions; 429 is retried, a 500 outage errors one task, safety checks are acknowledged', async () => {
    const check = { id: 'cu_sc_e2e', code: 'malicious_instructions', message: 'The page may contain instructions.' }
    const url = await serve((call) => {
      const task = taskOf(call)
      if (task === 'omnizon-5') return { fault: 'status', status: 500, message: 'scripted outage', echo_auth: true }
      if (task === 'omnizon-1' && call.turn === 0 && call.attempt === 0) return { fault: 'status', status: 429, retry_after: 1 }
      const turn = recordedTurn(findRecorded(oracle, call.goal)!, call.turn)
      if (task === 'omnizon-3' && call.turn === 0) return { ...turn, safety_checks: [check] }
      if (task === 'omnizon-7' && call.turn === 0) return { ...turn, thought: 'Opening the gaming category.' }
      return turn
    })
    const run = await bench(taskFiles(1, 3, 5, 7), agentEnv({ name: 'openai-cua', options: { safety_checks: 'acknowledge', retries: 1 } }, url))
    const results = byId(run)

    for (const id of ['omnizon-1', 'omnizon-3', 'omnizon-7']) {
      expect(results[id]?.status, `${id}: ${JSON.stringify(results[id]?.error)}`).toBe('passed')
      expect(results[id]?.trajectory.map((s) => s.action.type)).toEqual(oracleActions(id))
      expect(results[id]?.input_tokens).toBeGreaterThan(0)
      expect(results[id]?.agent_yaml).toContain('name: openai-cua')
    }
    expect(results['omnizon-7']?.trajectory[0]?.thought).toBe('Opening the gaming category.')
    // 429, then the same turn again after Retry-After.
    const [limited, retried] = callsOf('omnizon-1')
    expect([limited?.status, retried?.status, retried?.turn]).toEqual([429, 200, 0])
    expect(retried!.receivedAt - limited!.receivedAt).toBeGreaterThanOrEqual(900)
    // The acknowledged check went back with the next screenshot.
    const acknowledged = callsOf('omnizon-3')[1]!.body.input as Array<Record<string, unknown>>
    expect(acknowledged.find((item) => item.type === 'computer_call_output')?.acknowledged_safety_checks).toEqual([check])
    // The outage: that task errors (after its retries), the others pass.
    expect(results['omnizon-5']).toMatchObject({ status: 'error', agent_status: 'error' })
    // A model failing for good is a fault of its own kind, not the agent's reasoning.
    expect(results['omnizon-5']?.error).toEqual({
      kind: 'model_error',
      message: 'the Responses API failed: 500 scripted outage (request authorization: Bearer [redacted])',
    })
    expect(callsOf('omnizon-5')).toHaveLength(2)

    // Every model call is in the task's transcript.jsonl: requests without keys or image bytes
    // (the screenshots are references to PNGs in the run folder), responses, timings, retries, tokens.
    for (const id of ['omnizon-1', 'omnizon-3', 'omnizon-5', 'omnizon-7']) {
      expect(results[id]?.transcript, id).toBe(`${id}/transcript.jsonl`)
      const text = readFileSync(join(run.runDir!, results[id]!.transcript!), 'utf8')
      expect(text, id).not.toContain(E2E_KEY)
      expect(text, id).not.toContain('base64,')
      const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(lines.length, id).toBe(callsOf(id).length)
      for (const line of lines) {
        expect(line).toMatchObject({ method: 'POST', url: expect.stringMatching(/\/v1\/responses$/), duration_ms: expect.any(Number) })
        for (const image of JSON.stringify(line.request).match(/\[image ([^\]]+)\]/g) ?? []) {
          expect(existsSync(join(run.runDir!, image.slice('[image '.length, -1))), image).toBe(true)
        }
      }
      expect(JSON.stringify(lines[0]!.request)).toContain('[image ')
    }
    const [first, again] = readFileSync(join(run.runDir!, 'omnizon-1/transcript.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect([first.call, first.attempt, first.status, again.call, again.attempt, again.status]).toEqual([1, 1, 429, 1, 2, 200])
    expect(again.usage.input_tokens).toBeGreaterThan(0)
    expect(JSON.stringify(readFileSync(join(run.runDir!, 'omnizon-5/transcript.jsonl'), 'utf8'))).toContain('[redacted]')
    // The report links the transcript and shows each call under the step it led to.
    const report = readFileSync(join(run.runDir!, 'report.html'), 'utf8')
    expect(report).toContain('href="omnizon-1/transcript.jsonl"')
    expect(report).toContain('model call 1 (attempt 2)')
    expect(server!.requests.every((call) => call.headers.authorization === `Bearer ${E2E_KEY}`)).toBe(true)
  })

  test('openai-chat solves tasks with scaled screenshots and recovers from a broken tool call', async () => {
    const replay = replayPolicy(oracle, { scale: 0.5 })
    const url = await serve((call) => {
      if (taskOf(call) !== 'omnizon-1') return replay(call)
      // The first reply of omnizon-1 is a tool call with broken JSON; the oracle follows.
      return call.turn === 0 ? { calls: [{ name: 'click', arguments: '{"x": 297, "y":' }] } : replay({ ...call, turn: call.turn - 1 })
    })
    const options = { screenshot_fit: { width: 640, height: 400 }, observation: 'both' }
    const run = await bench(taskFiles(1, 3, 7), agentEnv({ name: 'openai-chat', options }, url, { AGENTEST_MODEL: 'local-vlm' }))
    const results = byId(run)
    for (const id of ['omnizon-1', 'omnizon-3', 'omnizon-7']) {
      expect(results[id]?.status, `${id}: ${JSON.stringify(results[id]?.error)}`).toBe('passed')
      expect(results[id]?.agent_model).toBe('local-vlm')
    }
    const messages = callsOf('omnizon-1')[1]!.body.messages as Array<{ role: string; content: unknown }>
    expect(messages.find((m) => m.role === 'tool')?.content).toMatch(/^error: click: the arguments are not valid JSON/)
    const shot = callsOf('omnizon-3')[0]!.screenshot!
    expect(await sharp(shot).metadata()).toMatchObject({ width: 640, height: 400 })
    expect(JSON.stringify(callsOf('omnizon-3')[0]!.body.messages)).toContain('Accessibility tree:')
  })

  test.each(['image', 'screen', 'relative_1000', 'normalized'] as const)(
    'openai-chat solves tasks from a grounding model that answers in %s coordinates, with the screenshots resized',
    async (coordinates) => {
      // 1280x800 shown as 960x600: every convention but `screen` differs from screen pixels.
      const url = await serve(replayPolicy(oracle, { coordinates, scale: 0.75 }))
      const options = { screenshot_fit: { width: 960, height: 600 }, coordinates }
      const run = await bench(taskFiles(1, 5), agentEnv({ name: 'openai-chat', options }, url, { AGENTEST_MODEL: 'grounding-vlm' }))
      const results = byId(run)
      for (const id of ['omnizon-1', 'omnizon-5']) {
        expect(results[id]?.status, `${id}: ${JSON.stringify(results[id]?.error)}`).toBe('passed')
        // The clicks landed where the oracle's did, within the rounding of the model's convention.
        const clicks = (r: TestCaseRun) => r.trajectory.flatMap((s) => (s.action.type === 'click' ? [[s.action.x, s.action.y]] : []))
        const expected = clicks(oracle.find((r) => r.id === id)!)
        expect(expected.length, `${id}: the oracle clicks`).toBeGreaterThan(0)
        expect(clicks(results[id]!)).toHaveLength(expected.length)
        clicks(results[id]!).forEach(([x, y], i) => {
          expect(Math.abs(x! - expected[i]![0]!), `${id} click ${i}`).toBeLessThanOrEqual(1)
          expect(Math.abs(y! - expected[i]![1]!), `${id} click ${i}`).toBeLessThanOrEqual(1)
        })
      }
      expect(await sharp(callsOf('omnizon-1')[0]!.screenshot!).metadata()).toMatchObject({ width: 960, height: 600 })
    },
  )

  test('openai-chat solves tasks from a UI-TARS-style model that answers in text (action_format ui-tars)', async () => {
    const url = await serve(uiTarsReplayPolicy(oracle, { coordinates: 'relative_1000' }))
    const options = { action_format: 'ui-tars', coordinates: 'relative_1000', screenshot_fit: { width: 960, height: 600 } }
    const run = await bench(taskFiles(1, 5), agentEnv({ name: 'openai-chat', options }, url, { AGENTEST_MODEL: 'ui-tars-like' }))
    const results = byId(run)
    for (const id of ['omnizon-1', 'omnizon-5']) {
      expect(results[id]?.status, `${id}: ${JSON.stringify(results[id]?.error)}`).toBe('passed')
      expect(results[id]?.final_answer).toBe(oracle.find((r) => r.id === id)!.final_answer)
    }
    const first = callsOf('omnizon-1')[0]!
    expect(first.body.tools).toBeUndefined()
    expect(callsOf('omnizon-1')[1]!.body.messages).toContainEqual(expect.objectContaining({ role: 'assistant', content: expect.stringContaining("Action: click(start_box='<|box_start|>(") }))
  })

  test.each([
    { version: 'computer_20250124', model: 'claude-sonnet-4-5', fit: null, scale: 1 },
    { version: 'computer_20251124', model: 'claude-opus-4-5', fit: { width: 960, height: 600 }, scale: 0.75 },
  ] as const)('anthropic-cu solves tasks from served oracle actions under $version', async ({ version, model, fit, scale }) => {
    anthropic = await startAnthropicServer({ policy: anthropicReplayPolicy(oracle, { scale, toolVersion: version.slice('computer_'.length) as '20250124' | '20251124' }) })
    const options = fit ? { screenshot_fit: fit } : {}
    const run = await bench(taskFiles(1, 3, 5), agentEnv({ name: 'anthropic-cu', options }, anthropic.url, { AGENTEST_MODEL: model }))
    const results = byId(run)
    for (const id of ['omnizon-1', 'omnizon-3', 'omnizon-5']) {
      const result = results[id]!
      expect(result.status, `${id}: ${JSON.stringify(result.error)}`).toBe('passed')
      expect(result.final_answer).toBe(oracle.find((r) => r.id === id)!.final_answer)
      expect(result.input_tokens).toBeGreaterThan(0)
      // The transcript holds every call, with screenshots as references and no key.
      const text = readFileSync(join(run.runDir!, result.transcript!), 'utf8')
      expect(text).not.toContain(E2E_KEY)
      expect(text).not.toContain('iVBORw0KGgo')
      expect(text).toContain('/v1/messages')
      expect(text).toMatch(/"data":"\[image [^\]]+\.png\]"/)
    }
    const calls = anthropic.requests
    expect(calls.every((call) => call.status === 200), JSON.stringify(calls.find((call) => call.status !== 200)?.rejected)).toBe(true)
    expect(new Set(calls.map((call) => call.betas.join()))).toEqual(new Set([version === 'computer_20250124' ? 'computer-use-2025-01-24' : 'computer-use-2025-11-24']))
    await anthropic.close()
    anthropic = null
  })

  test('replay reproduces the oracle run from its folder', async () => {
    const from = runs[0]!.runDir!
    const run = await bench(taskFiles(1, 3, 7), { AGENTEST_CONFIG: agentEnv({ name: 'replay', options: { from } }, 'http://unused.test/v1').AGENTEST_CONFIG })
    const results = byId(run)
    for (const id of ['omnizon-1', 'omnizon-3', 'omnizon-7']) {
      const original = oracle.find((r) => r.id === id)!
      expect(results[id]?.status).toBe('passed')
      // The same actions, on today's clone (its port differs from the recorded run's).
      expect(results[id]?.trajectory.map(samePage)).toEqual(original.trajectory.map(samePage))
      expect(results[id]?.final_answer).toBe(original.final_answer)
    }
  })

  test('faults: safety check stop, blocklisted URL, malformed output, a hung call, max_steps', async () => {
    const replay = replayPolicy(oracle)
    const url = await serve((call): ReplyInput => {
      switch (taskOf(call)) {
        case 'omnizon-1':
          return { safety_checks: [{ code: 'sensitive_domain', message: 'This page handles payments.' }], actions: [{ type: 'wait', ms: 10 }] }
        case 'omnizon-3':
          return { actions: [{ type: 'goto', url: '/account' }] }
        case 'omnizon-5':
          return { fault: 'malformed' }
        case 'omnizon-7':
          return call.turn === 0 ? { fault: 'hang' } : replay(call)
        default:
          return { actions: [{ type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 200 }] }
      }
    })
    const env = agentEnv({ name: 'openai-cua', options: { blocklist: ['/account'], retries: 1 } }, url, {
      AGENTEST_MAX_STEPS: '3',
      AGENTEST_TASK_TIMEOUT_MS: '15000',
    })
    const run = await bench(taskFiles(1, 2, 3, 5, 7), env)
    const results = byId(run)
    expect(results['omnizon-1']).toMatchObject({
      status: 'error',
      error: { kind: 'agent_error', message: 'safety check sensitive_domain: This page handles payments. (agent.options.safety_checks: stop)' },
    })
    expect(results['omnizon-1']?.trajectory.filter((s) => s.action.type !== 'message')).toEqual([])
    expect(results['omnizon-3']).toMatchObject({ status: 'error', error: { kind: 'blocked_url' } })
    expect(results['omnizon-3']?.error?.message).toMatch(/\/account \(agent\.options\.blocklist\)$/)
    expect(results['omnizon-5']).toMatchObject({ status: 'error', error: { kind: 'model_error' } })
    expect(results['omnizon-5']?.error?.message).toMatch(/^the Responses API sent a malformed response \(2 attempts\): not JSON/)
    expect(results['omnizon-7']).toMatchObject({ status: 'timeout', agent_status: 'timeout' })
    // The task's signal aborted the hung HTTP call.
    expect(callsOf('omnizon-7')[0]?.aborted).toBe(true)
    expect(results['omnizon-2']).toMatchObject({ status: 'failed', agent_status: 'max_steps', max_steps: 3 })
    expect(results['omnizon-2']?.trajectory).toHaveLength(3)
  })

  test('the API key appears nowhere in the results or the output', () => {
    // The oracle, openai-cua, openai-chat scaled, four coordinate conventions, UI-TARS text, anthropic-cu under two tool versions, replay, the faults run.
    expect(runs).toHaveLength(12)
    expect(filesHolding(E2E_KEY, runs)).toEqual([])
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(E2E_KEY)
  })
})
