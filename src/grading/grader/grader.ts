import { setTimeout as sleep } from 'node:timers/promises'
import type OpenAI from 'openai'
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { redact } from '../../secrets/redact.ts'
import { openaiSdk } from '../../agents/shared/client.ts'
import type { GraderConfig } from '../../schema/config.ts'
import type { Vote } from '../../schema/grading.ts'
import type { CheckSpec } from '../../schema/task.ts'
import type { Evidence } from '../evidence/evidence.ts'
import { graderBaseURLFields, graderEndpoints, insecureGraderEndpoint, type GraderEndpoint } from './endpoints.ts'
import { buildPrompt, MissingEvidenceError } from './prompt.ts'
import { parseVerdict, verdictJsonSchema } from './verdict.ts'
import { decide, unscored, type Judgement } from './vote.ts'

const VERDICT_SCHEMA = verdictJsonSchema()

/**
 * The LLM grader: one Chat Completions call per check and grader model (any OpenAI-compatible
 * server), structured output, retries, and a majority over the models. It never turns a fault
 * into a pass or a fail: no verdict means unscored, with the reason.
 */
export class Grader {
  private readonly clients = new Map<string, OpenAI>()

  constructor(
    readonly config: GraderConfig,
    readonly endpoints: readonly GraderEndpoint[],
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get models(): string[] {
    return this.endpoints.map((e) => e.model)
  }

  async judge(spec: CheckSpec, evidence: Evidence, signal?: AbortSignal): Promise<Judgement> {
    let messages: ChatCompletionMessageParam[]
    try {
      messages = await buildPrompt(spec, evidence, {
        maxImagePx: this.config.max_image_px,
        maxFlowScreenshots: this.config.max_flow_screenshots,
      })
    } catch (error) {
      if (error instanceof MissingEvidenceError) return unscored(error.message)
      throw error
    }
    const votes = await Promise.all(this.endpoints.map((endpoint) => this.vote(endpoint, messages, signal)))
    return decide(votes)
  }

  /** One model's verdict, after retries; an error or an unparsable answer is a vote without a score. */
  private async vote(endpoint: GraderEndpoint, messages: ChatCompletionMessageParam[], signal?: AbortSignal): Promise<Vote> {
    const vote: Vote = { model: endpoint.model, score: -1, comment: null, checklist: [], error: null, input_tokens: 0, output_tokens: 0 }
    const apiKey = this.env[endpoint.apiKeyEnv]
    if (!apiKey) return { ...vote, error: `${endpoint.apiKeyEnv} is not set (the grader reads its API key from it: grader.api_key_env)` }
    // Never over plain HTTP to a third party (the config loader refuses such a run first).
    const fields = graderBaseURLFields(this.config)
    const field = fields.length === this.endpoints.length ? fields[this.endpoints.indexOf(endpoint)] : undefined
    const insecure = insecureGraderEndpoint(this.config, endpoint, field)
    if (insecure) return { ...vote, error: insecure }
    const client = this.client(endpoint, apiKey)
    const { retries } = this.config
    let problem = ''
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(Math.min(500 * 2 ** (attempt - 1), 8_000), undefined, { signal })
      let completion: OpenAI.ChatCompletion
      try {
        // The SDK itself retries 408/409/429/5xx, timeouts and dropped connections.
        completion = await client.chat.completions.create(this.request(endpoint.model, messages), { signal })
      } catch (error) {
        if (signal?.aborted) throw error
        // A 200 whose body is not JSON (SyntaxError) or not a completion (TypeError) is retried here.
        if (error instanceof SyntaxError || error instanceof TypeError) {
          problem = `a malformed response body (${oneLine(error.message)})`
          continue
        }
        return { ...vote, error: redact(describe(error), [apiKey]) }
      }
      vote.input_tokens += completion.usage?.prompt_tokens ?? 0
      vote.output_tokens += completion.usage?.completion_tokens ?? 0
      const message = completion.choices?.[0]?.message
      const parsed = message?.refusal ? { ok: false as const, problem: `refused: ${message.refusal}` } : parseVerdict(message?.content ?? '')
      if (parsed.ok) return { ...vote, score: parsed.verdict.score, comment: parsed.verdict.comment, checklist: parsed.verdict.checklist }
      problem = parsed.problem
    }
    return { ...vote, error: redact(`no verdict after ${retries + 1} attempts: ${problem}`, [apiKey]) }
  }

  private request(model: string, messages: ChatCompletionMessageParam[]): ChatCompletionCreateParamsNonStreaming {
    const { temperature, response_format: format } = this.config
    return {
      model,
      messages,
      ...(temperature === null ? {} : { temperature }),
      ...(format === 'json_schema'
        ? { response_format: { type: 'json_schema', json_schema: { name: 'verdict', strict: true, schema: VERDICT_SCHEMA } } }
        : format === 'json_object'
          ? { response_format: { type: 'json_object' } }
          : {}),
    }
  }

  private client(endpoint: GraderEndpoint, apiKey: string): OpenAI {
    const key = `${endpoint.baseURL}\n${endpoint.apiKeyEnv}`
    let client = this.clients.get(key)
    if (!client) {
      const Client = openaiSdk()
      client = new Client({
        apiKey,
        baseURL: endpoint.baseURL ?? undefined,
        timeout: this.config.timeout_ms,
        maxRetries: this.config.retries,
      })
      this.clients.set(key, client)
    }
    return client
  }
}

/** The configured grader, or null when there is none (judged checks are then unscored). */
export function createGrader(config: GraderConfig, env: NodeJS.ProcessEnv = process.env): Grader | null {
  const endpoints = graderEndpoints(config, env)
  return endpoints.length ? new Grader(config, endpoints, env) : null
}

function describe(error: unknown): string {
  const OpenAI = openaiSdk()
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'the grader timed out (every retry too)'
  if (error instanceof OpenAI.APIConnectionError) return `the grader is unreachable: ${oneLine(error.message)}`
  if (error instanceof OpenAI.APIError) return `the grader failed: ${oneLine(error.message)}`
  return error instanceof Error ? oneLine(error.message) : String(error)
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 500)
}
