import { z } from 'zod'
import { issuePath } from '../../errors/input-error.ts'
import { didYouMean } from '../../errors/did-you-mean.ts'

/** A size in pixels that screenshots are scaled down to fit (aspect kept). */
export const ImageFit = z.object({ width: z.number().int().min(64), height: z.number().int().min(64) }).strict()
export type ImageFit = z.infer<typeof ImageFit>

/** `agent.options` every model-driven agent understands; each agent extends these. */
export const ModelOptions = z.object({
  temperature: z.number().min(0).max(2).optional(),
  max_output_tokens: z.number().int().positive().optional(),
  /** Wall-clock limit of one model call; a call that takes longer is retried like a 5xx. */
  timeout_ms: z.number().int().positive().default(120_000),
  /** Retries of a failed call (429, 5xx, timeouts, dropped connections, malformed bodies), with backoff. */
  retries: z.number().int().min(0).max(10).default(2),
  /** Screenshots are scaled to fit this before they go to the model; its coordinates are mapped back. */
  screenshot_fit: ImageFit.nullable().default(null),
  /** URL substrings or /regex/: reaching one (checked after every action) ends the task with an error. */
  blocklist: z.array(z.string().min(1)).default([]),
  /** Appended to the agent's built-in instructions. */
  instructions: z.string().min(1).optional(),
  /** Model calls per task: a net for loops that take no steps (max_steps bounds the rest). */
  max_turns: z.number().int().positive().default(100),
  /** Invalid tool calls (bad JSON, bad arguments, unknown tool) the model may make before the task errors. */
  max_tool_errors: z.number().int().min(0).default(3),
})
export type ModelOptions = z.infer<typeof ModelOptions>

/** A bad `agent.options` value; the message is the one line a user should read. */
export class AgentOptionsError extends Error {
  override name = 'AgentOptionsError'
}

/** Validates `agent.options` for one agent; the first problem becomes one line naming the field. */
export function parseOptions<S extends z.ZodType>(agent: string, schema: S, options: unknown): z.infer<S> {
  const parsed = schema.safeParse(options)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : []
  const field = issuePath(['agent', 'options', ...issue.path, ...keys.slice(0, 1)])
  const known = schema instanceof z.ZodObject ? Object.keys(schema.shape) : []
  const near = keys[0] ? didYouMean(keys[0], known) : null
  const message = issue.code === 'unrecognized_keys' ? `not an option of ${agent}${near ? `; did you mean "${near}"?` : ''}` : issue.message
  const error = new AgentOptionsError(`${field}: ${message}`)
  error.stack = `${error.name}: ${error.message}`
  throw error
}
