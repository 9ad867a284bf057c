export { defineAgent, type Agent, type AgentContext, type AgentOutcome, type TokenUsage } from './agent.ts'
export { registerAgent, resolveAgent } from './registry.ts'
export { oracle, nop, nearMiss } from './builtin.ts'
export { BUILTIN_AGENTS } from './names.ts'
// Types only: the model agents load lazily (see registry.ts), so importing agentest stays light.
export type { CuaOptions } from './openai-cua/options.ts'
export type { ChatOptions } from './openai-chat/options.ts'
export type { AnthropicCuOptions } from './anthropic-cu/options.ts'
export type { ReplayOptions } from './replay/index.ts'
