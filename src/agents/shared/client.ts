import { setTimeout as sleep } from 'node:timers/promises'
import { createRequire } from 'node:module'
import type OpenAI from 'openai'
import type { z } from 'zod'
import type { ModelSettings } from './settings.ts'
import { cachingFetch, type ModelCacheSettings } from './model-cache.ts'

/** Where a task's model calls are written (transcript.jsonl): it wraps the client's fetch. */
export interface TranscriptHandle {
  wrap(inner: typeof globalThis.fetch): typeof globalThis.fetch
}

const load = createRequire(import.meta.url)

/**
 * The `openai` SDK, required on first use: every worker imports this module, and most runs call
 * no model (the SDK's import costs about 0.06 CPU-seconds).
 */
export const openaiSdk = (): typeof OpenAI => load('openai') as typeof OpenAI

/**
 * The real `openai` client. It retries 408/409/429/5xx, timeouts and dropped connections itself,
 * with exponential backoff and Retry-After honoured; `callModel` adds retries of malformed bodies.
 */
export function createClient(settings: ModelSettings, modelCache: ModelCacheSettings | null = null, transcript: TranscriptHandle | null = null): OpenAI {
  const fetch = modelFetch(modelCache, transcript)
  const OpenAI = openaiSdk()
  return new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL ?? undefined,
    timeout: settings.timeoutMs,
    maxRetries: settings.retries,
    // Opt-in (run.model_cache): replies to requests seen before come from disk.
    ...(fetch ? { fetch } : {}),
  })
}

/**
 * The fetch a model SDK client gets: replies from disk when the model cache is on, and every
 * call transcribed (cached replies too: the transcript says what the agent was answered); null
 * when neither is asked for, so the SDK keeps its own.
 */
export function modelFetch(modelCache: ModelCacheSettings | null, transcript: TranscriptHandle | null): typeof globalThis.fetch | null {
  const cached = modelCache ? cachingFetch(modelCache) : null
  return transcript ? transcript.wrap(cached ?? globalThis.fetch) : cached
}

/** A model call failed for good; the message is one line, without the key. */
export class ModelCallError extends Error {
  override name = 'ModelCallError'
}

export interface CallOptions {
  /** What is being called, for messages: "the Responses API". */
  what: string
  retries: number
  signal: AbortSignal
  /** Turns the SDK's own errors into one-line ModelCallErrors (default: the openai SDK's). */
  explain?: (error: unknown, what: string) => Error
}

/**
 * Makes one model call and validates its body. The SDK has already retried transport and status
 * failures; a body that is not JSON or fails the schema is retried here with the same budget.
 * The task's signal aborts the in-flight request (it is passed to the SDK by `send`).
 */
export async function callModel<S extends z.ZodType>(
  send: () => Promise<unknown>,
  schema: S,
  { what, retries, signal, explain = asModelCallError }: CallOptions,
): Promise<z.infer<S>> {
  for (let attempt = 0; ; attempt++) {
    let problem: string
    try {
      const body = await send()
      const parsed = schema.safeParse(body)
      if (parsed.success) return parsed.data
      const issue = parsed.error.issues[0]
      problem = issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'unexpected shape'
    } catch (error) {
      if (signal.aborted) throw error
      // JSON.parse fails with a SyntaxError; the SDK's post-processing of a body of the wrong
      // shape (a string, no `output`) with a TypeError. Connection failures arrive as APIErrors.
      if (!(error instanceof SyntaxError || error instanceof TypeError)) throw explain(error, what)
      problem = `${error instanceof SyntaxError ? 'not JSON' : 'unexpected shape'} (${error.message.split('\n')[0]})`
    }
    if (attempt >= retries) {
      throw new ModelCallError(`${what} sent a malformed response (${attempt + 1} attempts): ${problem}`)
    }
    await sleep(backoffMs(attempt), undefined, { signal })
  }
}

function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8_000)
}

function asModelCallError(error: unknown, what: string): Error {
  const OpenAI = openaiSdk()
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new ModelCallError(`${what} timed out (every retry too)`)
  if (error instanceof OpenAI.APIConnectionError) return new ModelCallError(`${what} is unreachable: ${error.message}`)
  if (error instanceof OpenAI.APIError) return new ModelCallError(`${what} failed: ${oneLine(error.message)}`)
  return error instanceof Error ? error : new Error(String(error))
}

export function oneLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 500)
}
