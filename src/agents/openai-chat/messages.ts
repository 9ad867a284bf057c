import { z } from 'zod'

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/** Chat messages as sent; the assistant's are echoed back with their tool calls. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: ContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string }

const ToolCall = z
  .object({
    id: z.string(),
    type: z.literal('function').default('function'),
    function: z.object({
      name: z.string(),
      // Some compatible servers send the arguments as an object rather than a JSON string.
      arguments: z.union([z.string(), z.record(z.string(), z.unknown()).transform((a) => JSON.stringify(a))]).default(''),
    }),
  })
  .loose()
export type ToolCall = z.infer<typeof ToolCall>

/** The parts of a Chat Completions answer the loop reads, checked at runtime. */
export const CompletionBody = z.object({
  choices: z
    .array(
      z
        .object({
          message: z
            .object({
              content: z.string().nullish(),
              /** Reasoning text some servers return beside the content (DeepSeek, vLLM). */
              reasoning_content: z.string().nullish(),
              tool_calls: z.array(ToolCall).nullish(),
            })
            .loose(),
          finish_reason: z.string().nullish(),
        })
        .loose(),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).loose().nullish(),
})
export type CompletionBody = z.infer<typeof CompletionBody>

/** Replaces all but the newest `keep` screenshots with a note, so the prompt stays bounded. */
export function pruneScreenshots(messages: ChatMessage[], keep: number): void {
  let seen = 0
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.role !== 'user') continue
    message.content = message.content.map((part) => {
      if (part.type !== 'image_url') return part
      seen++
      return seen > keep ? { type: 'text', text: '(an earlier screenshot, removed)' } : part
    })
  }
}
