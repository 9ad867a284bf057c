import { BUILTIN_AGENT_OPTIONS } from './options-schemas.ts'

/** Agents that ship with agentest: those whose options the config loader knows (light: no agent's code). */
export const BUILTIN_AGENTS: readonly string[] = Object.keys(BUILTIN_AGENT_OPTIONS)
