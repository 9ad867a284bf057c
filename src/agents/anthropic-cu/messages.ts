import { z } from 'zod'

/**
 * The parts of a Messages API reply the loop reads, checked at runtime (the SDK's types are
 * compile-time only). Blocks go back into the history exactly as they came: thinking blocks
 * must return unchanged, signature included, for the API to accept the next turn.
 */
export const ContentBlock = z.object({ type: z.string() }).loose()
export type ContentBlock = z.infer<typeof ContentBlock>

export const ToolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string(), input: z.record(z.string(), z.unknown()) }).loose()
export type ToolUseBlock = z.infer<typeof ToolUseBlock>

export const MessageBody = z
  .object({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    content: z.array(ContentBlock),
    stop_reason: z.string().nullable(),
    usage: z
      .object({
        input_tokens: z.number(),
        output_tokens: z.number(),
        cache_creation_input_tokens: z.number().nullish(),
        cache_read_input_tokens: z.number().nullish(),
      })
      .loose(),
  })
  .loose()
  .superRefine((body, ctx) => {
    // A tool_use the loop cannot answer would break the conversation: check them all here.
    body.content.forEach((block, i) => {
      if (block.type !== 'tool_use') return
      const parsed = ToolUseBlock.safeParse(block)
      if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['content', i, ...parsed.error.issues[0]!.path], message: parsed.error.issues[0]!.message })
    })
  })
export type MessageBody = z.infer<typeof MessageBody>

/** What the loop sends: a user turn (text, images, tool results) or an assistant turn as received. */
export type Message = { role: 'user' | 'assistant'; content: Array<Record<string, unknown>> }

export function imageBlock(png: Buffer): Record<string, unknown> {
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } }
}

export function textBlock(text: string): Record<string, unknown> {
  return { type: 'text', text }
}

/** Input tokens of every kind: fresh, written to the cache and read from it. */
export function inputTokens(usage: MessageBody['usage']): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0)
}

/**
 * The request's copy of the history with cache breakpoints on the last block of the two newest
 * user turns: the newest writes the cache, the one before reads what the last request wrote.
 * The stored history stays unmarked, so breakpoints never pile up past the API's four.
 */
export function withCacheBreakpoints(messages: readonly Message[]): Message[] {
  let marked = 0
  const copy = messages.map((message) => ({ ...message, content: [...message.content] }))
  for (let i = copy.length - 1; i >= 0 && marked < 2; i--) {
    const message = copy[i]!
    const last = message.content.length - 1
    if (message.role !== 'user' || last < 0) continue
    message.content[last] = { ...message.content[last], cache_control: { type: 'ephemeral' } }
    marked++
  }
  return copy
}
