import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { AgentServerClient } from '../../src/agent-images/client.ts'
import { isLoopbackAddress, parseListeners, showListener } from '../../src/agent-images/listeners.ts'
import { modelEndpointWarning } from '../../src/agent-images/model-endpoint.ts'
import { AgentStartError, isNotAgentsDoing } from '../../src/faults/kinds.ts'
import { AgentConfig, type ResolvedRun } from '../../src/schema/config.ts'
import { openWithRetries, SandboxStartError } from '../../src/task/sandbox-start.ts'
import type { TaskSandbox } from '../../src/task/sandboxes.ts'
import { stoppedFault } from '../../src/task/stopped.ts'
import { ROOT } from '../e2e/run-benchmark.ts'

/** The parts of what a packaged agent's author is told that need no container (the rest: test/docker/packaged-failures.test.ts). */
describe('what listens inside a container', () => {
  test('is read from the kernel\'s tables: LISTEN sockets only, IPv4 and IPv6, with the loopback told apart', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1 0 100 0 0 10 0',
      '   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0 100 0 0 10 0',
      '   2: 0100007F:1F40 0100007F:C714 01 00000000:00000000 00:00000000 00000000  1000        0 3 1 0 100 0 0 10 0',
    ].join('\n')
    const tcp6 = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue',
      '   0: 00000000000000000000000001000000:1F41 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000',
      '   1: 00000000000000000000000000000000:1F42 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000',
      '   2: 0000000000000000FFFF00000100007F:1F43 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000',
    ].join('\n')
    const found = parseListeners(`${tcp}\n${tcp6}`)
    expect(found).toEqual([
      { address: '127.0.0.1', port: 8000 },
      { address: '0.0.0.0', port: 22 },
      { address: '::1', port: 8001 },
      { address: '::', port: 8002 },
      { address: '::ffff:127.0.0.1', port: 8003 },
    ])
    expect(found.map((l) => isLoopbackAddress(l.address))).toEqual([true, false, true, false, true])
    expect(found.map(showListener)).toEqual(['127.0.0.1:8000', '0.0.0.0:22', '[::1]:8001', '[::]:8002', '[::ffff:127.0.0.1]:8003'])
  })
})

describe('a packaged agent\'s start that failed by its own fault', () => {
  const signal = new AbortController().signal
  const classify = async () => ({ kind: 'sandbox_start' as const, message: 'the machine' })

  test('is not retried, is on record as agent_start, and counts in the rates', async () => {
    let tries = 0
    const open = async (): Promise<TaskSandbox> => {
      tries++
      throw new AgentStartError('the agent server exited with code 3 before answering GET /health')
    }
    const error = (await openWithRetries(open, { retries: 3, classify, signal }).catch((e: unknown) => e)) as SandboxStartError
    expect(error).toBeInstanceOf(SandboxStartError)
    expect(tries).toBe(1)
    expect(error.fault).toEqual({ kind: 'agent_start', message: 'the agent server exited with code 3 before answering GET /health' })
    expect(error.retries).toEqual([])
    expect(isNotAgentsDoing(error.fault)).toBe(false)
  })

  test('is scrubbed with its message: the fault is read from it', () => {
    const error = new AgentStartError('its log: key sk-secret-1234')
    error.message = error.message.replace('sk-secret-1234', '[redacted]')
    expect(error.fault.message).toBe('its log: key [redacted]')
  })
})

describe('a task that timed out', () => {
  test('names agentest\'s setting for its limit, not Vitest\'s testTimeout', () => {
    const vitest = 'Test timed out in 20000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".'
    expect(stoppedFault(vitest, 'in flight')).toEqual({
      kind: 'timeout',
      message: "Task timed out in 20000ms (its limit: run.task_timeout_ms in agentest.config.yaml (AGENTEST_TASK_TIMEOUT_MS), or the task's own timeout_ms)",
    })
    expect(stoppedFault('the task timed out', 'in flight')).toEqual({ kind: 'timeout', message: 'the task timed out' })
    expect(stoppedFault('SIGINT', 'in flight').kind).toBe('aborted')
  })
})

describe('a run of a packaged agent without a model endpoint', () => {
  const run = (agent: Record<string, unknown>, image = true) =>
    ({ config: { agent: AgentConfig.parse({ name: 'image', spec: 'my-agent:1.2.0', ...agent }) }, agent_image: image ? { ref: 'my-agent:1.2.0' } : null }) as unknown as ResolvedRun

  test('is warned at its start, with how to set one', () => {
    expect(modelEndpointWarning(run({}))).toBe(
      'agentest: warning: the packaged agent my-agent:1.2.0 has no model endpoint (its run requests say model.base_url and model.name: null): set agent.base_url and agent.model in agentest.config.yaml (or AGENTEST_BASE_URL and AGENTEST_MODEL)',
    )
    expect(modelEndpointWarning(run({ model: 'gpt-4o' }))).toBe(
      'agentest: warning: the packaged agent my-agent:1.2.0 has no model endpoint (its run requests say model.base_url: null): set agent.base_url in agentest.config.yaml (or AGENTEST_BASE_URL)',
    )
    expect(modelEndpointWarning(run({ base_url: 'http://127.0.0.1:11434/v1' }))).toBeNull()
    expect(modelEndpointWarning(run({}, false))).toBeNull()
  })
})

describe('an agent cancelled mid-run, over real HTTP', () => {
  let server: Server | null = null
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

  /** A protocol server that streams a step every 100 ms; `honours` decides whether DELETE ends the run as cancelled. */
  async function agent(honours: boolean): Promise<AgentServerClient> {
    let cancelled = false
    server = createServer((request, response) => {
      if (request.method === 'DELETE') {
        cancelled = honours
        response.writeHead(200).end()
        return
      }
      response.writeHead(200, { 'content-type': 'application/x-ndjson' })
      const timer = setInterval(() => {
        if (cancelled) {
          clearInterval(timer)
          response.end('{"type":"final","status":"cancelled"}\n')
          return
        }
        response.write('{"type":"step","action":{"type":"wait","ms":100}}\n')
      }, 100)
      response.on('close', () => clearInterval(timer))
    })
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done))
    const address = server.address()
    return new AgentServerClient(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`)
  }

  const request = {
    protocol: 'agentest/v1' as const,
    run_id: 'run-1',
    task: { id: 't', instruction: 'wait', max_steps: 1000 },
    model: { base_url: null, name: null, api_key_env: null },
    display: { name: ':99', width: 1280, height: 800 },
    options: {},
  }

  /** Reads the stream, cancels at its first step, and says how the agent took it (the reading stops after 6 s). */
  async function cancelMidRun(client: AgentServerClient): Promise<string | null> {
    const stream = new AbortController()
    setTimeout(() => stream.abort(), 6_000).unref()
    let cancelled = () => {}
    const asked = new Promise<void>((done) => (cancelled = done))
    const reading = (async () => {
      for await (const event of client.run(request, stream.signal)) {
        if (event.type !== 'step') continue
        void client.cancelActive()
        cancelled()
      }
    })().catch(() => undefined)
    await asked
    const outcome = await client.cancelOutcome()
    stream.abort()
    await reading
    return outcome
  }

  test('an agent that ends its stream as cancelled is not remarked on', async () => {
    const client = await agent(true)
    const stream = new AbortController()
    const events: string[] = []
    for await (const event of client.run(request, stream.signal)) {
      events.push(event.type === 'final' ? event.status : event.type)
      if (event.type === 'step' && events.length === 1) void client.cancelActive()
    }
    expect(events.at(-1)).toBe('cancelled')
    expect(await client.cancelOutcome()).toBeNull()
  })

  test('an agent that goes on is said to have not stopped, with what its DELETE answered', { timeout: 15_000 }, async () => {
    const client = await agent(false)
    expect(await cancelMidRun(client)).toMatch(
      /^the agent did not stop when cancelled: DELETE \/v1\/runs\/run-1 answered 200, but its stream went on for 5 s \(\d+ more step event\(s\)\) with no final "cancelled" event, and agentest closed it/,
    )
  })
})

describe('docs/agent-protocol.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/agent-protocol.md'), 'utf8')

  test('its examples name tasks that exist', () => {
    const ids = readdirSync(join(ROOT, 'tasks/desktop'))
      .filter((f) => f.endsWith('.task.ts'))
      .map((f) => /id: '([^']+)'/.exec(readFileSync(join(ROOT, 'tasks/desktop', f), 'utf8'))?.[1])
    const named = [...new Set([...doc.matchAll(/\bdesktop-[a-z]+(?:-[a-z]+)*\b/g)].map((m) => m[0]))]
    expect(named.length).toBeGreaterThan(0)
    for (const id of named) expect(ids, id).toContain(id)
  })

  test('it states what a server must do and what it is given', () => {
    expect(doc).toContain('**Listen on `0.0.0.0`**')
    expect(doc).toMatch(/`name` is `agent\.model` \(`AGENTEST_MODEL`\), or `null` when the user set none/)
    expect(doc).toMatch(/`base_url` is `agent\.base_url` \(`AGENTEST_BASE_URL`\)/)
    expect(doc).toContain('`api_key_env` is `agent.api_key_env`, `OPENAI_API_KEY` unless the user named another')
  })
})
