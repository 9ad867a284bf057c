import { z } from 'zod'

/**
 * The parts of a Responses API answer the loop reads, validated at runtime (the SDK's types are
 * compile-time only). Unknown item types pass through untouched and are kept in the history.
 */
export const SafetyCheck = z.object({ id: z.string(), code: z.string().nullish(), message: z.string().nullish() })
export type SafetyCheck = z.infer<typeof SafetyCheck>

export const ReasoningItem = z
  .object({
    type: z.literal('reasoning'),
    id: z.string(),
    summary: z.array(z.object({ text: z.string() }).loose()).default([]),
  })
  .loose()

export const MessageItem = z
  .object({
    type: z.literal('message'),
    role: z.string(),
    content: z.array(z.object({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() }).loose()),
  })
  .loose()

/** One `action` (the preview API), or a batch in `actions` (the GA computer tool). */
export const ComputerCallItem = z
  .object({
    type: z.literal('computer_call'),
    call_id: z.string(),
    action: z.unknown().optional(),
    actions: z.array(z.unknown()).optional(),
    pending_safety_checks: z.array(SafetyCheck).nullish(),
  })
  .loose()
  .refine((item) => item.action !== undefined || item.actions !== undefined, 'a computer_call needs action or actions')

export const FunctionCallItem = z
  .object({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() })
  .loose()

const ITEMS = { reasoning: ReasoningItem, message: MessageItem, computer_call: ComputerCallItem, function_call: FunctionCallItem }

export type OutputItem =
  | z.infer<typeof ReasoningItem>
  | z.infer<typeof MessageItem>
  | z.infer<typeof ComputerCallItem>
  | z.infer<typeof FunctionCallItem>
  | { type: 'other'; raw: Record<string, unknown> }

/** An output item: one of the four the loop handles (strictly checked), or any other, kept as is. */
const AnyItem = z
  .object({ type: z.string() })
  .loose()
  .transform((item, ctx): OutputItem & { raw: Record<string, unknown> } => {
    const schema = ITEMS[item.type as keyof typeof ITEMS]
    if (!schema) return { type: 'other', raw: item }
    const parsed = schema.safeParse(item)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      ctx.addIssue({ code: 'custom', message: `${[item.type, ...issue.path].join('.')}: ${issue.message}` })
      return z.NEVER
    }
    return { ...parsed.data, raw: item }
  })

export const ResponseBody = z.object({
  id: z.string(),
  status: z.string().nullish(),
  error: z.object({ message: z.string() }).loose().nullish(),
  output: z.array(AnyItem),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).loose().nullish(),
})
export type ResponseBody = z.infer<typeof ResponseBody>

/** Items the loop sends. `computer_call_output` follows the sample app: input_image + current_url. */
export type InputItem =
  | { role: 'user' | 'developer'; content: Array<{ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' }> }
  | {
      type: 'computer_call_output'
      call_id: string
      output: { type: 'input_image'; image_url: string; current_url?: string }
      acknowledged_safety_checks?: SafetyCheck[]
    }
  | { type: 'function_call_output'; call_id: string; output: string }
  | Record<string, unknown>
