import { createHash } from 'node:crypto'
import { appendFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { redact } from '../secrets/redact.ts'

type Fetch = typeof globalThis.fetch

/** The task folder's file of model calls, one JSON line per HTTP attempt. */
export const TRANSCRIPT_FILE = 'transcript.jsonl'

/** A response body longer than this is cut (a model's answer is far shorter; an error page may not be). */
const MAX_TEXT = 200_000

export interface TranscriptOptions {
  /** The run folder; the transcript and unmatched images go to `<runDir>/<taskId>/`. */
  runDir: string
  taskId: string
  /** Values never written: the key, the spec's secrets. */
  secrets: readonly string[]
  /** The run-relative path of a recorded step PNG with these bytes' SHA-256, if there is one. */
  stepImage(sha256: string): string | null
  /** How many steps are recorded so far: a call is filed under the step it leads to. */
  stepCount(): number
}

/**
 * Every model call an agent makes, as it went over HTTP: the request (images replaced by
 * references to PNG files, secrets redacted, no headers), the response, the status, timings, the
 * attempt (the SDK's retries are separate lines) and the token counts. Written line by line, so
 * a task that dies keeps what it had.
 */
export class ModelTranscript {
  private calls = 0
  private lastBody: string | null = null
  private attempt = 0
  private ready: Promise<unknown> | null = null
  private readonly savedImages = new Map<string, string>()
  private pending: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: TranscriptOptions) {}

  /** The run-relative path of the transcript, or null while no call was made. */
  get path(): string | null {
    return this.calls > 0 ? `${this.options.taskId}/${TRANSCRIPT_FILE}` : null
  }

  /** Wraps the SDK's fetch: each attempt is written when its response (or failure) is in. */
  wrap(inner: Fetch): Fetch {
    return async (input, init) => {
      const request = new Request(input, init)
      const body = request.method === 'POST' ? await request.clone().text() : ''
      // The SDK resends the same body when it retries; a new body is a new call.
      if (body !== this.lastBody || this.attempt === 0) {
        this.calls++
        this.attempt = 1
        this.lastBody = body
      } else this.attempt++
      const entry = { call: this.calls, attempt: this.attempt, step: this.options.stepCount() + 1, started_at: new Date().toISOString() }
      const started = performance.now()
      let response: Response
      try {
        response = await inner(input, init)
      } catch (error) {
        this.record({ ...entry, ...(await this.requestOf(request, body)), duration_ms: Math.round(performance.now() - started), error: String((error as Error)?.message ?? error) })
        throw error
      }
      const text = await response.clone().text().catch(() => '')
      const duration_ms = Math.round(performance.now() - started)
      const parsed = parseJson(text)
      this.record({
        ...entry,
        ...(await this.requestOf(request, body)),
        duration_ms,
        status: response.status,
        usage: usageOf(parsed),
        response: parsed ?? text.slice(0, MAX_TEXT),
      })
      return response
    }
  }

  /** Waits for every line to be on disk. */
  async flush(): Promise<void> {
    await this.pending
  }

  private async requestOf(request: Request, body: string): Promise<Record<string, unknown>> {
    const url = new URL(request.url)
    const json = parseJson(body)
    return { method: request.method, url: `${url.origin}${url.pathname}`, request: json === null ? body.slice(0, MAX_TEXT) : await this.withoutImages(json) }
  }

  /** The request with every data: image replaced by a reference to a PNG in the run folder. */
  private async withoutImages(value: unknown): Promise<unknown> {
    if (typeof value === 'string') {
      const image = /^data:image\/[a-z]+;base64,(.*)$/s.exec(value)
      return image ? `[image ${await this.imageFile(Buffer.from(image[1]!, 'base64'))}]` : value
    }
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.withoutImages(item)))
    if (value && typeof value === 'object') {
      // Anthropic's image blocks carry bare base64 in source.data, not a data: URL.
      const source = value as { type?: unknown; media_type?: unknown; data?: unknown }
      if (source.type === 'base64' && typeof source.media_type === 'string' && source.media_type.startsWith('image/') && typeof source.data === 'string') {
        return { ...source, data: `[image ${await this.imageFile(Buffer.from(source.data, 'base64'))}]` }
      }
      const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await this.withoutImages(item)] as const))
      return Object.fromEntries(entries)
    }
    return value
  }

  /** A recorded step's PNG when the model saw exactly that; otherwise the image, saved once. */
  private async imageFile(bytes: Buffer): Promise<string> {
    const sha = createHash('sha256').update(bytes).digest('hex')
    const step = this.options.stepImage(sha)
    if (step) return step
    const saved = this.savedImages.get(sha)
    if (saved) return saved
    const name = `model-image-${sha.slice(0, 12)}.png`
    const path = `${this.options.taskId}/${name}`
    this.savedImages.set(sha, path)
    await this.folder()
    await writeFile(join(this.options.runDir, path), bytes)
    return path
  }

  private record(line: Record<string, unknown>): void {
    const text = redact(JSON.stringify(line), this.options.secrets)
    const file = join(this.options.runDir, this.options.taskId, TRANSCRIPT_FILE)
    this.pending = this.pending.then(() => this.folder()).then(() => appendFile(file, `${text}\n`)).catch(() => undefined)
  }

  private folder(): Promise<unknown> {
    this.ready ??= mkdir(dirname(join(this.options.runDir, this.options.taskId, TRANSCRIPT_FILE)), { recursive: true })
    return this.ready
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * Token counts as each API states them (Responses: input/output_tokens; Chat: prompt/completion_tokens;
 * Messages: input_tokens beside the cache's reads and writes, which count as input too).
 */
function usageOf(body: unknown): { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number } | null {
  const usage = (body as { usage?: Record<string, unknown> } | null)?.usage
  if (!usage) return null
  const read = Number(usage.cache_read_input_tokens ?? 0)
  const written = Number(usage.cache_creation_input_tokens ?? 0)
  const input = Number(usage.input_tokens ?? usage.prompt_tokens ?? 0) + read + written
  const output = Number(usage.output_tokens ?? usage.completion_tokens ?? 0)
  return { input_tokens: input, output_tokens: output, ...(read || written ? { cache_read_input_tokens: read, cache_creation_input_tokens: written } : {}) }
}
