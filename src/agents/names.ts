/** Agents that ship with agentest; kept apart from their code so the config loader stays light. */
export const BUILTIN_AGENTS: readonly string[] = ['oracle', 'nop', 'near-miss', 'alternative', 'openai-cua', 'openai-chat', 'anthropic-cu', 'replay', 'image']
