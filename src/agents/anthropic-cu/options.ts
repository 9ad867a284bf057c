import { z } from 'zod'
import { ModelOptions } from '../shared/options.ts'

/** The computer tool's versions this loop speaks; each needs its own beta header. */
export const ToolVersion = z.enum(['computer_20250124', 'computer_20251124'])
export type ToolVersion = z.infer<typeof ToolVersion>

export const AnthropicCuOptions = ModelOptions.extend({
  /** The computer tool's version; unset: the newest the model takes (see defaultToolVersion). */
  tool_version: ToolVersion.optional(),
  /** Extended thinking's token budget (at least 1024); null: no thinking. */
  thinking_budget: z.number().int().min(1024).nullable().default(null),
  /** Cache the conversation's prefix up to the newest tool results (cache reads cost a tenth of input). */
  prompt_caching: z.boolean().default(true),
  /** In a browser, offer `goto(url)` and `back()` tools besides the computer. */
  browser_tools: z.boolean().default(true),
  /** Pixels one unit of `scroll_amount` scrolls; unset: 100 in a browser, one wheel click (50) on a desktop. */
  scroll_unit_px: z.number().int().positive().optional(),
})
  .strict()
  .refine((o) => o.thinking_budget === null || o.temperature === undefined, {
    path: ['temperature'],
    message: 'cannot be set with thinking_budget (extended thinking runs at the API\'s own temperature)',
  })
export type AnthropicCuOptions = z.infer<typeof AnthropicCuOptions>

export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5'

/**
 * The tool version a model takes: computer_20251124 (with zoom) from Claude Opus 4.5 and from
 * any 4.6-or-later model, computer_20250124 for the Claude 4 models before them and Sonnet 3.7.
 */
export function defaultToolVersion(model: string): ToolVersion {
  const match = /claude-(?:(opus|sonnet|haiku)-)?(\d+)(?:[-.](\d+))?/.exec(model)
  if (!match) return 'computer_20250124'
  const [, family, major, minor] = match
  const version = Number(major) + Number(minor && minor.length <= 2 ? minor : 0) / 10
  if (version >= 4.6 || (family === 'opus' && version >= 4.5)) return 'computer_20251124'
  return 'computer_20250124'
}

/** The beta flag (anthropic-beta header) each tool version needs. */
export const BETA_OF: Readonly<Record<ToolVersion, string>> = {
  computer_20250124: 'computer-use-2025-01-24',
  computer_20251124: 'computer-use-2025-11-24',
}
