export { defineAgent, type Agent, type AgentContext, type AgentOutcome, type TokenUsage } from './agent.ts'
export { registerAgent, resolveAgent } from './registry.ts'
export { oracle, nop, nearMiss } from './builtin.ts'
export { BUILTIN_AGENTS } from './names.ts'
