import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Docker from 'dockerode'
import type { Browser } from 'playwright'
import { DesktopSandbox } from '../sandbox/desktop/desktop-sandbox.ts'
import { connectBrowser } from '../sandbox/index.ts'
import { AgentServerClient, ProtocolError, type AgentServerProbe } from '../agent-images/client.ts'
import { agentContainerSettings } from '../agent-images/container-settings.ts'
import { startServedAgent } from '../agent-images/served-container.ts'
import { redact } from '../secrets/redact.ts'
import { PROTOCOL_VERSION, type RunEvent, type RunRequest } from '../agent-images/protocol.ts'
import { agentPort } from '../schema/agent-image.ts'
import { BrowserConfig } from '../schema/config.ts'
import type { LoadedAgentSpec } from '../agent-images/registry.ts'
import { servePage, type ServedPage } from './served-page.ts'

export interface ConformanceCheck {
  name: string
  passed: boolean
  detail: string
}

export interface ConformanceOptions {
  docker: Docker
  loaded: LoadedAgentSpec
  /** The built agent image. */
  tag: string
  /** Where the agent's model calls go (a server on this machine's loopback is relayed to the container). */
  model: { base_url: string | null; name: string; api_key_env: string | null }
  /** Environment for the container (the spec's environment and secrets). */
  env: Record<string, string>
  /** Labels the container as this run's, for cleanup. */
  runId: string
  log?: (check: ConformanceCheck) => void
}

/** The instruction of the run conformance cancels; a scripted model stalls on it. */
export const CANCEL_INSTRUCTION = 'agentest conformance: keep working until you are cancelled.'
export const RUN_INSTRUCTION = 'agentest conformance: take a step or two, then say you are done.'

/** The checks, in order (a run that stops early names those it did not get to); a served agent's "actions" are its "screenshots" check. */
export const CHECKS = ['container', 'health', 'bad request', 'run stream', 'max_steps', 'screenshots', 'actions', 'cancel', 'cancelled', 'unknown run'] as const

export interface ConformanceResult {
  checks: ConformanceCheck[]
  /**
   * Why the checks stopped before the last (the agent's server died: every later check would fail
   * for that alone), or null when they all ran.
   */
  stopped: string | null
}

/** The agent's server died: the checks stop here, with that as the failed check's reason. */
class ServerDown extends Error {}

/**
 * Checks an agent image against the protocol, as an author would before submitting it: health,
 * a rejected bad request, a full run's stream (every line against the schemas, a final event
 * last), a cancel, and an unknown run id. Each check is reported as it finishes. A failed check
 * whose cause is the server's death (its process exited, its container stopped) says so, with
 * the exit code and the last log lines, and the checks stop there.
 */
export async function checkConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const checks: ConformanceCheck[] = []
  const log = (check: ConformanceCheck) => {
    checks.push(check)
    options.log?.(check)
  }
  const { spec } = options.loaded.spec
  const secrets = spec.secrets.map((name) => options.env[name]).filter((value): value is string => Boolean(value))
  let agent: CheckedAgent
  try {
    agent = spec.computer === 'served' ? await openServed(options, secrets) : await openOwnDesktop(options, secrets)
    log({ name: 'container', passed: true, detail: agent.started })
  } catch (error) {
    log({ name: 'container', passed: false, detail: redact(message(error), secrets) })
    return { checks, stopped: null }
  }
  const { client } = agent
  try {
    // A failed check first asks whether the server died; if it did, that is the reason, and the end.
    const record: Report = async (name, passed, detail) => {
      if (!passed) {
        const down = await client.down(`during the "${name}" check`)
        if (down) {
          log({ name, passed, detail: redact(down.message, secrets) })
          throw new ServerDown(down.message)
        }
      }
      log({ name, passed, detail: redact(detail, secrets) })
      return passed
    }
    const started = Date.now()
    try {
      await client.waitHealthy(spec.health.path, spec.health.timeout_ms)
      await record('health', true, `GET ${spec.health.path} answered 2xx after ${((Date.now() - started) / 1000).toFixed(1)} s`)
    } catch (error) {
      // Every later check needs a healthy server: the reason (an exit, a loopback bind) is in the message.
      log({ name: 'health', passed: false, detail: redact(message(error), secrets) })
      return { checks, stopped: null }
    }

    const bad = await fetch(new URL('/v1/runs', client.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"protocol":"agentest/v1"}' }).then(
      async (response) => {
        await response.body?.cancel()
        return response.status
      },
      (error: unknown) => errorText(error),
    )
    await record('bad request', bad === 400, `POST /v1/runs with an incomplete body answered ${bad}${bad === 400 ? '' : ' (expected 400)'}`)

    // A model server on this machine's loopback is relayed to the container, as in a benchmark run.
    const baseUrl = options.model.base_url ? await client.containerUrl(options.model.base_url) : null
    const relayed = { ...options, model: { ...options.model, base_url: baseUrl } }
    await checkRun(agent, relayed, record)
    await checkCancel(agent, relayed, record)

    const unknown = await client.cancel(`no-such-run-${randomBytes(3).toString('hex')}`)
    await record('unknown run', unknown === 404, `DELETE /v1/runs/<unknown id> answered ${unknown ?? 'nothing'}${unknown === 404 ? '' : ' (expected 404)'}`)
    return { checks, stopped: null }
  } catch (error) {
    if (!(error instanceof ServerDown)) throw error
    const last = checks.at(-1)!.name
    const other = spec.computer === 'served' ? 'screenshots' : 'actions'
    const skipped = CHECKS.slice(CHECKS.indexOf(last as (typeof CHECKS)[number]) + 1).filter((name) => name !== other)
    return { checks, stopped: `the agent server died during the "${last}" check${skipped.length ? `, so the checks after it (${skipped.join(', ')}) were not run` : ''}` }
  } finally {
    await agent.close()
  }
}

/** The agent's server under check, in its container, and how a check task is handed to it. */
interface CheckedAgent {
  client: AgentServerClient
  /** What the "container" check says. */
  started: string
  /** The parts of a run request that say where it acts, and what to undo when the run is over. */
  task(instruction: string, maxSteps: number): Promise<{ parts: Pick<RunRequest, 'display' | 'computer'>; page: ServedPage | null }>
  close(): Promise<void>
}

/** An own-desktop agent: its server in a desktop container built on its base. */
async function openOwnDesktop(options: ConformanceOptions, secrets: string[]): Promise<CheckedAgent> {
  const { spec } = options.loaded.spec
  const port = agentPort(options.loaded.spec)
  const sandbox = await DesktopSandbox.open({
    docker: options.docker,
    image: options.tag,
    runId: options.runId,
    taskId: 'agent-check',
    setupCmd: null,
    network: true,
    limits: { memoryMb: spec.requirements.memory_mb, cpus: spec.requirements.cpus, pids: spec.requirements.pids },
    agentServer: { port, env: options.env },
  })
  const probe: AgentServerProbe = {
    port,
    logs: async () => redact(await sandbox.logs(), secrets),
    gone: async () => (await sandbox.whyGone())?.message ?? null,
    server: () => sandbox.agentServerState(),
    listening: () => sandbox.listening(),
  }
  const client = new AgentServerClient(`http://127.0.0.1:${await sandbox.publishedPort(port)}`, await sandbox.gateway(), probe)
  return {
    client,
    started: `${options.tag} started as ${sandbox.name} with the desktop ready`,
    task: async () => ({ parts: { display: { name: ':99', width: 1280, height: 800 } }, page: null }),
    close: () => sandbox.close(),
  }
}

/** A served agent: its own container, acting on a page in a real browser through the served Computer. */
async function openServed(options: ConformanceOptions, secrets: string[]): Promise<CheckedAgent> {
  const settings = agentContainerSettings({ file: options.loaded.file, shown: options.loaded.shown, ref: options.loaded.ref, spec: options.loaded.spec }, [])
  const agent = await startServedAgent({
    docker: options.docker,
    image: options.tag,
    runId: options.runId,
    taskId: 'agent-check',
    settings: { ...settings, server: { ...settings.server, env: options.env } },
    redact: (text) => redact(text, secrets),
    waitHealthy: false,
  })
  const dir = mkdtempSync(join(tmpdir(), 'agentest-agent-check-'))
  let browser: Promise<Browser> | null = null
  return {
    client: agent.client,
    started: `${options.tag} started as ${agent.name} (it acts through the served Computer)`,
    async task(instruction, maxSteps) {
      browser ??= connectBrowser(BrowserConfig.parse({}), undefined)
      const page = await servePage(await browser, {
        id: `agent-check-${randomBytes(3).toString('hex')}`,
        goal: instruction,
        maxSteps,
        timeoutMs: 120_000,
        dir,
        secrets,
        model: { url: options.model.base_url ?? '', keyVariable: options.model.api_key_env ?? 'OPENAI_API_KEY' },
      })
      const { served, context } = page
      const [mcp, api] = await Promise.all([agent.client.containerUrl(served.mcpUrl), agent.client.containerUrl(served.apiUrl)])
      const computer = { mcp_url: mcp, api_url: api, token: served.token, environment: context.computer.environment, ...context.computer.dimensions }
      return { parts: { display: null, computer }, page }
    },
    async close() {
      await agent.close()
      await (await browser?.catch(() => null))?.close().catch(() => {})
    },
  }
}

function request(options: ConformanceOptions, instruction: string, maxSteps: number, parts: Pick<RunRequest, 'display' | 'computer'>): RunRequest {
  return {
    protocol: PROTOCOL_VERSION,
    run_id: `conformance-${randomBytes(4).toString('hex')}`,
    task: { id: 'agent-check', instruction, max_steps: maxSteps },
    model: options.model,
    ...parts,
    options: {},
  }
}

/** Records one check's outcome (a failure whose cause is the server's death throws, to stop the checks). */
type Report = (name: string, passed: boolean, detail: string) => Promise<boolean>

async function checkRun(agent: CheckedAgent, options: ConformanceOptions, record: Report): Promise<void> {
  const { client } = agent
  const events: RunEvent[] = []
  const maxSteps = 5
  const { parts, page } = await agent.task(RUN_INSTRUCTION, maxSteps)
  try {
    try {
      for await (const event of client.run(request(options, RUN_INSTRUCTION, maxSteps, parts), AbortSignal.timeout(120_000))) {
        events.push(event)
        if (page && event.type === 'step') throw new ProtocolError('line ' + events.length + ' is a step event: an agent that acts through the served Computer sends none (its calls are its steps), only the final event')
      }
    } catch (error) {
      // As agentest does with a run that broke the protocol: cancel it, so the next check finds no run going.
      await client.cancelActive()
      await record('run stream', false, `${message(error)} (after ${events.length} valid event(s))`)
      return
    }
    const final = events.at(-1)
    const status = final?.type === 'final' ? final.status : '?'
    if (page) {
      const actions = page.recorder.steps.length
      const finished = await Promise.race([page.served.outcome.then((done) => done, () => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), 100))])
      await record('run stream', true, `${events.length} line(s), a final event (${status}) and no step events`)
      await record('max_steps', actions <= maxSteps, `${actions} action(s) through the served Computer with max_steps ${maxSteps}`)
      await record(
        'actions',
        actions > 0 && finished !== null,
        `${actions} action(s) through the served Computer, each recorded with agentest's screenshot; ${finished ? `finish called with ${JSON.stringify(finished.answer)}` : 'finish never called (the MCP tool finish, or POST /v1/finish)'}`,
      )
      return
    }
    const steps = events.filter((e) => e.type === 'step').length
    await record('run stream', true, `${events.length} line(s), each a valid event; ${steps} step(s), then a final event (${status})`)
    await record('max_steps', steps <= maxSteps, `${steps} step(s) with max_steps ${maxSteps}`)
    const withShot = events.filter((e) => e.type === 'step' && e.screenshot).length
    await record('screenshots', true, `${withShot} of ${steps} step(s) carried a screenshot (agentest takes one for the others)`)
  } finally {
    await page?.close()
  }
}

async function checkCancel(agent: CheckedAgent, options: ConformanceOptions, record: Report): Promise<void> {
  // A run cancelled by the check before may still be winding down, and the protocol lets the
  // agent answer 409 until it has: the check starts again then, for up to 10 s.
  const deadline = Date.now() + 10_000
  for (;;) {
    const outcome = await cancelOnce(agent, options)
    if (outcome === 'busy' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      continue
    }
    if (outcome === 'busy') {
      await record('cancel', false, 'POST /v1/runs answered 409 (a run is still going) for 10 s')
      return
    }
    await record('cancel', outcome.status !== null && outcome.status >= 200 && outcome.status < 300, `DELETE /v1/runs/{id} answered ${outcome.status ?? 'nothing'}`)
    await record('cancelled', outcome.cancelled === true, outcome.cancelled === true ? 'the stream ended with a final event of status "cancelled"' : outcome.cancelled)
    return
  }
}

/**
 * Starts a run that goes on until cancelled, cancels it 1.5 s later and sees how its stream ends:
 * 'busy' if the agent refused the run with 409 first, or the cancel's status and whether the
 * stream ended as cancelled (true) or how else (a message).
 */
async function cancelOnce(agent: CheckedAgent, options: ConformanceOptions): Promise<'busy' | { status: number | null; cancelled: true | string }> {
  const { parts, page } = await agent.task(CANCEL_INSTRUCTION, 50)
  try {
    return await cancelRun(agent.client, request(options, CANCEL_INSTRUCTION, 50, parts), page)
  } finally {
    await page?.close()
  }
}

async function cancelRun(client: AgentServerClient, run: RunRequest, page: ServedPage | null): Promise<'busy' | { status: number | null; cancelled: true | string }> {
  const events: RunEvent[] = []
  const stream = (async () => {
    for await (const event of client.run(run, AbortSignal.timeout(60_000))) events.push(event)
  })()
  const failed = stream.then(
    () => null,
    (error: unknown) => error,
  )
  const early = await Promise.race([failed, new Promise((resolve) => setTimeout(() => resolve('waited'), 1_500))])
  if (early instanceof ProtocolError && events.length === 0 && /^POST \/v1\/runs answered 409/.test(early.message)) return 'busy'
  // As a task's timeout does: the served Computer refuses further calls, and the agent is told to stop.
  page?.served.fail(new Error('agent:check cancelled the run'))
  const status = await client.cancel(run.run_id)
  const outcome = await Promise.race([failed, new Promise((resolve) => setTimeout(() => resolve('timeout'), 10_000))])
  const final = events.at(-1)
  if (outcome === 'timeout') return { status, cancelled: 'the stream did not end within 10 s of the cancel' }
  if (outcome instanceof Error) return { status, cancelled: message(outcome) }
  if (final?.type === 'final' && final.status === 'cancelled') return { status, cancelled: true }
  return { status, cancelled: `the stream ended with ${final ? JSON.stringify(final).slice(0, 120) : 'no event'} (expected a final event of status "cancelled")` }
}

function errorText(error: unknown): string {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : null
  return `no answer (${cause instanceof Error ? cause.message : message(error)})`
}

function message(error: unknown): string {
  if (error instanceof ProtocolError) return error.message
  return error instanceof Error ? error.message : String(error)
}
