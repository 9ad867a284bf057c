import type { GraderConfig } from '../../schema/config.ts'

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
