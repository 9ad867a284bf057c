import type { AgentConfig } from '../../schema/config.ts'
import { insecureKeyMessage, insecureKeyTransport } from '../../secrets/key-transport.ts'
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

/** A model provider's conventions: where its SDK looks for an endpoint and a key by default. */
export interface Provider {
  baseUrlEnv: string
  keyEnv: string
  /** Where the SDK goes when no base URL is set. */
  host: string
}

const OPENAI: Provider = { baseUrlEnv: 'OPENAI_BASE_URL', keyEnv: 'OPENAI_API_KEY', host: 'api.openai.com' }
const ANTHROPIC: Provider = { baseUrlEnv: 'ANTHROPIC_BASE_URL', keyEnv: 'ANTHROPIC_API_KEY', host: 'api.anthropic.com' }

/** The provider a built-in agent speaks to (OpenAI's API shapes unless it is Claude's loop). */
export function providerOf(agentName: string): Provider {
  return agentName === 'anthropic-cu' ? ANTHROPIC : OPENAI
}

/** The model agents' endpoint: `agent.base_url`, else the provider's variable (OPENAI_BASE_URL), else null (its API). */
export function agentBaseURL(config: Pick<AgentConfig, 'base_url' | 'name'>, env: NodeJS.ProcessEnv = process.env): string | null {
  return config.base_url ?? (env[providerOf(config.name).baseUrlEnv] || null)
}

/** Where the agent's base URL was set, for messages: `agent.base_url` or `OPENAI_BASE_URL`. */
export function agentBaseURLField(config: Pick<AgentConfig, 'base_url' | 'name'>): string {
  return config.base_url !== null ? 'agent.base_url' : providerOf(config.name).baseUrlEnv
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
