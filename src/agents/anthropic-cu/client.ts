import Anthropic from '@anthropic-ai/sdk'
import { ModelCallError, modelFetch, oneLine, type TranscriptHandle } from '../shared/client.ts'
import type { ModelCacheSettings } from '../shared/model-cache.ts'
import type { ModelSettings } from '../shared/settings.ts'

/**
 * The real `@anthropic-ai/sdk` client. It retries 408/409/429/5xx (529 "overloaded" included),
 * timeouts and dropped connections itself, honouring retry-after; `callModel` adds retries of
 * malformed bodies. Replies cached (run.model_cache) and transcribed like the OpenAI agents'.
 */
export function createAnthropicClient(settings: ModelSettings, modelCache: ModelCacheSettings | null, transcript: TranscriptHandle | null): Anthropic {
  const fetch = modelFetch(modelCache, transcript)
  return new Anthropic({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL ?? undefined,
    timeout: settings.timeoutMs,
    maxRetries: settings.retries,
    ...(fetch ? { fetch } : {}),
  })
}

/** The SDK's errors as one line without the key: unreachable, timed out, or the API's own message. */
export function explainAnthropicError(error: unknown, what: string): Error {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return new ModelCallError(`${what} timed out (every retry too)`)
  if (error instanceof Anthropic.APIConnectionError) return new ModelCallError(`${what} is unreachable: ${error.message}`)
  if (error instanceof Anthropic.APIError) {
    const body = error.error as { error?: { type?: string; message?: string } } | undefined
    const detail = body?.error?.message ? `${body.error.type ?? 'error'}: ${body.error.message}` : error.message
    return new ModelCallError(`${what} failed (${error.status ?? 'no status'}): ${oneLine(detail)}`)
  }
  return error instanceof Error ? error : new Error(String(error))
}
