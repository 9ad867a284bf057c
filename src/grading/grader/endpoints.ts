import type { GraderConfig } from '../../schema/config.ts'
import { insecureKeyMessage, insecureKeyTransport } from '../../secrets/key-transport.ts'

/** Where one grader model is reached. */
export interface GraderEndpoint {
  model: string
  /** null: OPENAI_BASE_URL, else the SDK's default (api.openai.com). */
  baseURL: string | null
  apiKeyEnv: string
}

/** The configured grader models with their endpoints; empty when no grader is configured. */
export function graderEndpoints(config: GraderConfig, env: NodeJS.ProcessEnv = process.env): GraderEndpoint[] {
  if (config.model === null) return []
  const entries = Array.isArray(config.model) ? config.model : [config.model]
  const fallbackURL = config.base_url ?? (env.OPENAI_BASE_URL || null)
  return entries.map((entry) =>
    typeof entry === 'string'
      ? { model: entry, baseURL: fallbackURL, apiKeyEnv: config.api_key_env }
      : { model: entry.model, baseURL: entry.base_url ?? fallbackURL, apiKeyEnv: entry.api_key_env ?? config.api_key_env },
  )
}

/**
 * Where each endpoint's base URL was set, in the order of `graderEndpoints`, for messages:
 * `grader.model[1].base_url`, `grader.base_url` or `OPENAI_BASE_URL`.
 */
export function graderBaseURLFields(config: GraderConfig): string[] {
  if (config.model === null) return []
  const list = Array.isArray(config.model)
  const entries = Array.isArray(config.model) ? config.model : [config.model]
  const shared = config.base_url !== null ? 'grader.base_url' : 'OPENAI_BASE_URL'
  return entries.map((entry, i) =>
    typeof entry !== 'string' && entry.base_url !== null ? (list ? `grader.model[${i}].base_url` : 'grader.model.base_url') : shared,
  )
}

/**
 * Why this endpoint may not get its key (plain HTTP to a host that is not loopback or
 * host.docker.internal, without `grader.allow_insecure_key`), as one line; null when it may.
 */
export function insecureGraderEndpoint(config: GraderConfig, endpoint: GraderEndpoint, field?: string): string | null {
  if (config.allow_insecure_key === true) return null
  const problem = insecureKeyTransport(endpoint.baseURL)
  if (!problem) return null
  const where = field ?? (endpoint.baseURL === config.base_url ? 'grader.base_url' : 'the grader\'s base URL')
  return insecureKeyMessage(where, endpoint.apiKeyEnv, problem, 'grader.allow_insecure_key')
}
