import type { AgentConfig } from '../../schema/config.ts'
import { insecureKeyMessage, insecureKeyTransport } from '../../config/key-transport.ts'
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

/** The model agents' endpoint: `agent.base_url`, else OPENAI_BASE_URL, else null (api.openai.com). */
export function agentBaseURL(config: Pick<AgentConfig, 'base_url'>, env: NodeJS.ProcessEnv = process.env): string | null {
  return config.base_url ?? (env.OPENAI_BASE_URL || null)
}

/** Where the agent's base URL was set, for messages: `agent.base_url` or `OPENAI_BASE_URL`. */
export function agentBaseURLField(config: Pick<AgentConfig, 'base_url'>): string {
  return config.base_url !== null ? 'agent.base_url' : 'OPENAI_BASE_URL'
}

/**
 * Resolves the model, endpoint and key: the model from `agent.model` (else the agent's default),
 * the base URL from `agent.base_url` (else OPENAI_BASE_URL), the key from the variable named by
 * `agent.api_key_env`. The key itself never appears in the config or the record, and it never
 * goes over plain HTTP to a host other than loopback or host.docker.internal unless
 * `agent.allow_insecure_key` says so (the config loader refuses such a run first; this is the
 * last line before a client exists).
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
  const baseURL = agentBaseURL(config, env)
  const problem = insecureKeyTransport(baseURL)
  if (problem && config.allow_insecure_key !== true) {
    throw bare(insecureKeyMessage(agentBaseURLField(config), config.api_key_env, problem, 'agent.allow_insecure_key'))
  }
  return {
    model,
    baseURL,
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
