import { describeZodError } from '../errors/input-error.ts'
import { modelUrlForContainer } from './loopback-relay.ts'
import { NDJSON, RunEvent, type RunRequest } from './protocol.ts'

/** The agent broke the protocol: a bad status, a malformed line, a missing final event. */
export class ProtocolError extends Error {
  override name = 'ProtocolError'
}

/** How the harness talks to one packaged agent's server, over HTTP. */
export class AgentServerClient {
  private active: string | null = null
  private cancelling: Promise<number | null> | null = null

  /**
   * `url` is the agent server's address on this machine; `gateway` is its container's bridge
   * gateway, where a model server on this machine's loopback is relayed for it.
   */
  constructor(
    readonly url: string,
    private readonly gateway: string | null = null,
  ) {}

  /** The model URL as the agent must use it from inside its container. */
  modelUrl(url: string): Promise<string> {
    return modelUrlForContainer(url, this.gateway)
  }

  /**
   * Polls the health path until it answers 2xx. On timeout the error quotes `logs()` (the
   * container's last lines), which is usually where the reason is.
   */
  async waitHealthy(path: string, timeoutMs: number, probe: { logs(): Promise<string>; gone(): Promise<string | null> }): Promise<void> {
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
      const gone = await probe.gone()
      if (gone || Date.now() > deadline) {
        const logs = await probe.logs()
        const why = gone ?? `GET ${path} did not answer 2xx within ${timeoutMs} ms (last: ${last})`
        throw new ProtocolError(`the agent server is not healthy: ${why}${logs ? `; its last log lines:\n${indent(logs)}` : ' (it logged nothing)'}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }

  /** Starts a run and yields its events, each checked against the protocol; the final one is last. */
  async *run(request: RunRequest, signal: AbortSignal): AsyncGenerator<RunEvent> {
    this.active = request.run_id
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
        this.active = null
      }
      yield event
    }
    if (!finished) throw new ProtocolError(`the stream ended after ${lineNumber} line(s) without a final event`)
  }

  /** Asks the agent to stop its run; returns the HTTP status, or null if it did not answer. */
  async cancel(runId: string, timeoutMs = 5_000): Promise<number | null> {
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
    return this.cancelling
  }
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

function indent(text: string): string {
  return text
    .split('\n')
    .slice(-20)
    .map((line) => `  | ${line}`)
    .join('\n')
}

