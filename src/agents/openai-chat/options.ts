import { z } from 'zod'
import { ModelOptions } from '../shared/options.ts'
import { CoordinateConvention } from './coordinates.ts'

export const ChatOptions = ModelOptions.extend({
  /** What the model gets after each action; desktops (no accessibility tree) always get screenshots. */
  observation: z.enum(['screenshot', 'axtree', 'both']).default('screenshot'),
  /** Screenshots kept in the history; older ones are replaced by a note, to bound the prompt. */
  keep_screenshots: z.number().int().min(1).default(3),
  /** Longest accessibility tree sent, in characters (the rest is cut with a note). */
  axtree_max_chars: z.number().int().min(1000).default(30_000),
  /** `required` makes the model call a tool every turn, where the server supports it. */
  tool_choice: z.enum(['auto', 'required']).default('auto'),
  /**
   * How the model states points: `image` (pixels of the screenshot it was shown), `screen`
   * (pixels of the real screen), `relative_1000` (0-1000 on each axis) or `normalized` (0-1).
   */
  coordinates: CoordinateConvention.default('image'),
  /** `tools` (tool calls) or `ui-tars` (a `Thought:` and an `Action: click(start_box='(x,y)')` in the text). */
  action_format: z.enum(['tools', 'ui-tars']).default('tools'),
}).strict()
export type ChatOptions = z.infer<typeof ChatOptions>
