import { defineAgent } from '../agent.ts'
import { runChat } from './loop.ts'

/**
 * `openai-chat`: a tool-calling loop over Chat Completions for any OpenAI-compatible server
 * (vLLM, Ollama, LM Studio, ...). Settings: agent.model (required), agent.base_url,
 * agent.api_key_env and agent.options (see ChatOptions).
 */
export const openaiChat = defineAgent({ name: 'openai-chat', run: runChat })
export { ChatOptions } from './options.ts'
export { CHAT_TOOLS } from './tools.ts'
