import type { z } from 'zod'
import { CuaOptions } from './openai-cua/options.ts'
import { AnthropicCuOptions } from './anthropic-cu/options.ts'
import { ChatOptions } from './openai-chat/options.ts'
import { ReplayOptions } from './replay/options.ts'
import { CommandOptions } from './command/options.ts'

/**
 * `agent.options` of each built-in agent, checked when the config loads so a typo is one line at
 * startup rather than an error in every task. The harness's own agents read none (a config written
 * for a model agent still runs its nop baseline); packaged agents (`image`) and user agents get
 * them passed through as given.
 */
export const BUILTIN_AGENT_OPTIONS: Readonly<Record<string, z.ZodType | null>> = {
  oracle: null,
  nop: null,
  'near-miss': null,
  alternative: null,
  'openai-cua': CuaOptions,
  'openai-chat': ChatOptions,
  'anthropic-cu': AnthropicCuOptions,
  replay: ReplayOptions,
  image: null,
  command: CommandOptions,
}
