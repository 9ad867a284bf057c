import { defineAgent } from '../agent.ts'
import { runAnthropicCu } from './loop.ts'

/**
 * `anthropic-cu`: Claude's computer-use loop over the Messages API (the computer_20250124 or
 * computer_20251124 tool). Settings: agent.model (default claude-sonnet-4-5), agent.base_url
 * (else ANTHROPIC_BASE_URL), agent.api_key_env (default ANTHROPIC_API_KEY) and agent.options
 * (see AnthropicCuOptions).
 */
export const anthropicCu = defineAgent({ name: 'anthropic-cu', run: runAnthropicCu })
export { AnthropicCuOptions } from './options.ts'
export { ModelRefusalError } from './loop.ts'
