import { z } from 'zod'
import { ModelOptions } from '../shared/options.ts'

export const CuaOptions = ModelOptions.extend({
  /** What to do with a computer_call's pending safety checks: echo them back, or end the task. */
  safety_checks: z.enum(['acknowledge', 'stop']).default('stop'),
  /** Resend every item each turn (reasoning included), or chain turns with previous_response_id. */
  history: z.enum(['items', 'previous_response_id']).default('items'),
  /** Reasoning summaries to ask for (they become the steps' thoughts); null asks for none. */
  reasoning_summary: z.enum(['auto', 'concise', 'detailed']).nullable().default('concise'),
  /** In a browser, offer `goto(url)` and `back()` function tools besides the computer tool. */
  browser_tools: z.boolean().default(true),
}).strict()
export type CuaOptions = z.infer<typeof CuaOptions>

export const DEFAULT_CUA_MODEL = 'computer-use-preview'
