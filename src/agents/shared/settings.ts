import type { AgentConfig } from '../../schema/config.ts'
import type { ModelOptions } from './options.ts'

/** Where and how to reach the model: everything a client needs, resolved from config and env. */
export interface ModelSettings {
  model: string
  /** null: the SDK's default (api.openai.com). */
  baseURL: string | null
  apiKey: string
  timeoutMs: number
  retries: number
}

/**
 * Resolves the model, endpoint and key: the model from `agent.model` (else the agent's default),
 * the base URL from `agent.base_url` (else OPENAI_BASE_URL), the key from the variable named by
 * `agent.api_key_env`. The key itself never appears in the config or the record.
 */
export function resolveSettings(
  agent: string,
  config: AgentConfig,
  options: Pick<ModelOptions, 'timeout_ms' | 'retries'>,
  defaultModel: string | null,
  env: NodeJS.ProcessEnv = process.env,
): ModelSettings {
  const model = config.model ?? defaultModel
  if (!model) throw bare(`agent.model: ${agent} needs a model (set agent.model or AGENTEST_MODEL)`)
  const apiKey = env[config.api_key_env]
  if (!apiKey) throw bare(`agent.api_key_env: ${config.api_key_env} is not set (${agent} reads its API key from it)`)
  return {
    model,
    baseURL: config.base_url ?? (env.OPENAI_BASE_URL || null),
    apiKey,
    timeoutMs: options.timeout_ms,
    retries: options.retries,
  }
}

function bare(message: string): Error {
  const error = new Error(message)
  error.stack = `Error: ${message}`
  return error
}
