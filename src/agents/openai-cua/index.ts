import { defineAgent } from '../agent.ts'
import { runCua } from './loop.ts'

/**
 * `openai-cua`: OpenAI's computer-use loop over the Responses API (computer_use_preview tool).
 * Settings: agent.model (default computer-use-preview), agent.base_url, agent.api_key_env and
 * agent.options (see CuaOptions).
 */
export const openaiCua = defineAgent({ name: 'openai-cua', run: runCua })
export { CuaOptions } from './options.ts'
export { SafetyCheckError } from './calls.ts'
