import { describeZodError } from '../errors/input-error.ts'
import { AgentStartError } from '../faults/kinds.ts'
import { isLoopbackAddress, showListener, type Listener } from './listeners.ts'
import { modelUrlForContainer } from './loopback-relay.ts'
import { NDJSON, RunEvent, type FinalStatus, type RunRequest } from './protocol.ts'

/** The agent broke the protocol: a bad status, a malformed line, a missing final event. */
export class ProtocolError extends Error {
  override name = 'ProtocolError'
}

/** The agent's server process (or its container) is gone: what broke its stream or its start. */
export class AgentServerDownError extends Error {
  override name = 'AgentServerDownError'
}

/** How the agent's server process is doing, as its container tells it (see DesktopSandbox.agentServerState). */
export type AgentServerState = { running: true } | { running: false; code: number | null }

/**
 * What the harness can see of an agent server from outside, for messages that say what went
 * wrong. `logs` are the container's last lines, already scrubbed of secrets; `gone` says why the
 * container stopped (null while it runs). The server's own state and what listens inside the
 * container are known for images built on agentest/desktop; null when they cannot be told.
 */
export interface AgentServerProbe {
  /** The container port the server answers on (this client's URL reaches it through its published port). */
  port?: number
  logs(): Promise<string>
  gone(): Promise<string | null>
  server?(): Promise<AgentServerState | null>
  listening?(): Promise<Listener[] | null>
}

/** How long the agent has, once cancelled, to end its stream with a final "cancelled" event (the protocol's "a few seconds"). */
export const CANCEL_WAIT_MS = 5_000

/** One run's stream, watched for how it ends after a cancel. */
interface RunWatch {
  id: string
  /** When the harness asked the agent to stop, and what its DELETE answered (null: nothing). */
  cancel: { at: number; status: Promise<number | null> } | null
  stepsAfterCancel: number
  final: FinalStatus | null
  ended: 'open' | 'by the agent' | 'by the harness'
  done: Promise<void>
  finish: () => void
  /** Whether the agent stopped when cancelled, once judged (cancelOutcome). */
  outcome?: Promise<string | null>
}

/** How the harness talks to one packaged agent's server, over HTTP. */
export class AgentServerClient {
  private active: string | null = null
  private cancelling: Promise<number | null> | null = null
  /** The last run started, watched for how it ends after a cancel. */
  private watch: RunWatch | null = null

  /**
   * `url` is the agent server's address on this machine; `gateway` is its container's bridge
   * gateway, where a model server on this machine's loopback is relayed for it; `probe` is what
   * can be seen of its container, for the messages of a server that died or cannot be reached.
   */
  constructor(
    readonly url: string,
    private readonly gateway: string | null = null,
    private readonly probe: AgentServerProbe | null = null,
    /** How the agent acts: in its own desktop (the task's container), or through the served Computer. */
    readonly acts: 'own-desktop' | 'served' = 'own-desktop',
  ) {}

  /** A URL of this machine (the model's, the served Computer's) as the agent must use it from inside its container. */
  containerUrl(url: string): Promise<string> {
    return modelUrlForContainer(url, this.gateway)
  }

  /**
   * Polls the health path until it answers 2xx. A server that cannot become healthy is said at
   * once, as the agent's fault (AgentStartError): its process exited (with its exit code), or it
   * listens on the container's loopback only, where the published port never arrives. On
   * timeout the error says what was last seen. Each quotes the container's last log lines,
   * which is usually where the reason is. A container that stopped is not the agent's doing
   * (the desktop's root process holds it): that is a plain error, as any failed start.
   */
  async waitHealthy(path: string, timeoutMs: number, probe: AgentServerProbe | null = this.probe): Promise<void> {
    const deadline = Date.now() + timeoutMs
    let last = 'no answer'
    for (;;) {
      // The status alone, not `instanceof Response`: a fetch installed by a library may answer
      // with a Response of another realm.
      const answer = await fetch(new URL(path, this.url), { signal: AbortSignal.timeout(2_000) }).then(
        (r) => ({ status: r.status }),
        (error: unknown) => ({ error }),
      )
      if ('status' in answer) {
        if (answer.status >= 200 && answer.status < 300) return
        last = `HTTP ${answer.status}`
      } else {
        last = errorText(answer.error)
      }
      const gone = await probe?.gone()
      if (gone) throw new ProtocolError(`the agent server is not healthy: ${gone}${await quoted(probe)}`)
      // No HTTP answer at all: has the server exited, or does it listen where nothing arrives?
      if (!('status' in answer) && probe) {
        const state = await probe.server?.().catch(() => null)
        if (state && !state.running) throw new AgentStartError(`${exited(state.code, `before answering GET ${path}`)}${await quoted(probe)}`)
        const listening = await this.listening(probe)
        const inside = listening?.filter((l) => l.port === probe.port)
        if (inside?.length && inside.every((l) => isLoopbackAddress(l.address))) {
          throw new AgentStartError(
            `the agent server listens on ${showListener(inside[0]!)} inside its container; listen on 0.0.0.0 (all interfaces): agentest reaches it through the container's published port (GET ${path}: ${last})${await quoted(probe)}`,
          )
        }
      }
      if (Date.now() > deadline) {
        const listening = 'status' in answer || !probe ? null : await this.listening(probe)
        const nothing = listening && !listening.some((l) => l.port === probe?.port) ? `; nothing listens on port ${probe?.port} inside its container${listening.length ? ` (listening: ${listening.map(showListener).join(', ')})` : ''}` : ''
        throw new AgentStartError(`the agent server is not healthy: GET ${path} did not answer 2xx within ${timeoutMs} ms (last: ${last})${nothing}${await quoted(probe)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }

  /** What listens inside the container, when the probe can tell. */
  private async listening(probe: AgentServerProbe): Promise<Listener[] | null> {
    if (probe.port === undefined || !probe.listening) return null
    return probe.listening().catch(() => null)
  }

  /**
   * Why the server stopped serving, when its process (or its container) is gone: an error naming
   * its exit code and quoting its last log lines; null while it runs, or when that cannot be told.
   * `when` says when ("mid-run"). A server's end is seen a moment after its stream's, so this
   * looks again for up to a second.
   */
  async down(when: string): Promise<AgentServerDownError | null> {
    const probe = this.probe
    if (!probe) return null
    for (let look = 0; look < 5; look++) {
      if (look > 0) await new Promise((resolve) => setTimeout(resolve, 250))
      const gone = await probe.gone().catch(() => null)
      if (gone) return new AgentServerDownError(`the agent server's container stopped ${when}: ${gone}${await quoted(probe)}`)
      const state = await probe.server?.().catch(() => null)
      if (!state) return null
      if (!state.running) return new AgentServerDownError(`${exited(state.code, when)}${await quoted(probe)}`)
    }
    return null
  }

  /** Starts a run and yields its events, each checked against the protocol; the final one is last. */
  async *run(request: RunRequest, signal: AbortSignal): AsyncGenerator<RunEvent> {
    this.active = request.run_id
    let finish = () => {}
    const done = new Promise<void>((resolve) => (finish = resolve))
    const watch: RunWatch = { id: request.run_id, cancel: null, stepsAfterCancel: 0, final: null, ended: 'open', done, finish }
    this.watch = watch
    try {
      const response = await fetch(new URL('/v1/runs', this.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: NDJSON },
        body: JSON.stringify(request),
        signal,
      })
      if (!response.ok || !response.body) {
        const body = (await response.text().catch(() => '')).trim().slice(0, 300)
        throw new ProtocolError(`POST /v1/runs answered ${response.status}${body ? `: ${body}` : ''}`)
      }
      let lineNumber = 0
      let finished = false
      for await (const line of lines(response.body)) {
        lineNumber += 1
        if (!line.trim()) continue
        if (finished) throw new ProtocolError(`line ${lineNumber} of the stream comes after the final event`)
        const event = parseEvent(line, lineNumber)
        if (event.type === 'final') {
          finished = true
          watch.final = event.status
          if (this.active === request.run_id) this.active = null
        } else if (watch.cancel) {
          watch.stepsAfterCancel += 1
        }
        yield event
      }
      if (!finished) throw new ProtocolError(`the stream ended after ${lineNumber} line(s) without a final event`)
    } finally {
      watch.ended = signal.aborted ? 'by the harness' : 'by the agent'
      watch.finish()
    }
  }

  /** Asks the agent to stop its run; returns the HTTP status, or null if it did not answer. */
  async cancel(runId: string, timeoutMs = CANCEL_WAIT_MS): Promise<number | null> {
    const response = await fetch(new URL(`/v1/runs/${encodeURIComponent(runId)}`, this.url), {
      method: 'DELETE',
      signal: AbortSignal.timeout(timeoutMs),
    }).catch(() => null)
    await response?.body?.cancel().catch(() => undefined)
    return response?.status ?? null
  }

  /** Cancels the run in progress, if any, once (the abort signal and the sandbox's close both ask). */
  cancelActive(): Promise<number | null> {
    const runId = this.active
    if (!runId) return this.cancelling ?? Promise.resolve(null)
    this.active = null
    this.cancelling = this.cancel(runId)
    if (this.watch?.id === runId && this.watch.ended === 'open') this.watch.cancel = { at: Date.now(), status: this.cancelling }
    return this.cancelling
  }

  /**
   * Whether the agent stopped when it was cancelled: null when it did (a final event ended its
   * stream within CANCEL_WAIT_MS of the cancel) or was never cancelled; otherwise what it did
   * instead, as a sentence for the record. Judged once, at the end of that time at the latest:
   * the agent's processes are stopped only after it (its turn's end waits for this).
   */
  cancelOutcome(): Promise<string | null> {
    const watch = this.watch
    if (!watch?.cancel) return Promise.resolve(null)
    watch.outcome ??= judgeCancel(watch, watch.cancel)
    return watch.outcome
  }
}

async function judgeCancel(watch: RunWatch, cancel: NonNullable<RunWatch['cancel']>): Promise<string | null> {
  const status = await cancel.status
  const left = cancel.at + CANCEL_WAIT_MS - Date.now()
  if (watch.final === null && watch.ended === 'open' && left > 0) await Promise.race([watch.done, new Promise((resolve) => setTimeout(resolve, left).unref())])
  // A final event ends the run, "cancelled" or (just then) another.
  if (watch.final !== null) return null
  const asked = `DELETE /v1/runs/${watch.id} ${status === null ? `got no answer within ${CANCEL_WAIT_MS / 1000} s` : `answered ${status}`}`
  const steps = watch.stepsAfterCancel ? ` (${watch.stepsAfterCancel} more step event(s))` : ''
  const then =
    watch.ended === 'by the agent'
      ? `its stream ended${steps} without a final event`
      : `its stream went on for ${CANCEL_WAIT_MS / 1000} s${steps} with no final "cancelled" event, and agentest closed it`
  return `the agent did not stop when cancelled: ${asked}, but ${then} (see DELETE /v1/runs/{run_id} in docs/agent-protocol.md)`
}

/** Parses and checks one NDJSON line; the error names the line and the field. */
export function parseEvent(line: string, lineNumber: number): RunEvent {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new ProtocolError(`line ${lineNumber} of the stream is not JSON: ${line.slice(0, 120)}`)
  }
  const parsed = RunEvent.safeParse(value)
  if (!parsed.success) {
    throw new ProtocolError(describeZodError(`line ${lineNumber} of the stream`, parsed.error).split('\n')[0]!)
  }
  return parsed.data
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let buffered = ''
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true })
    let newline = buffered.indexOf('\n')
    while (newline >= 0) {
      yield buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      newline = buffered.indexOf('\n')
    }
  }
  buffered += decoder.decode()
  if (buffered) yield buffered
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    return cause instanceof Error ? cause.message : error.message
  }
  return String(error)
}

/** "the agent server exited with code 137 mid-run". */
function exited(code: number | null, when: string): string {
  return code === null ? `the agent server exited ${when} (its exit code is not known)` : `the agent server exited with code ${code} ${when}`
}

/** The container's last log lines, as a message ends with them. */
async function quoted(probe: AgentServerProbe | null | undefined): Promise<string> {
  const logs = (await probe?.logs().catch(() => '')) ?? ''
  return logs ? `; its last log lines:\n${indent(logs)}` : ' (it logged nothing)'
}

function indent(text: string): string {
  return text
    .split('\n')
    .slice(-20)
    .map((line) => `  | ${line}`)
    .join('\n')
}

