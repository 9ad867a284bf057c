import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

/** The fields of a transcript line the report shows. */
const TranscriptLine = z
  .object({
    call: z.number().int(),
    attempt: z.number().int(),
    step: z.number().int(),
    duration_ms: z.number(),
    status: z.number().int().optional(),
    usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).nullable().optional(),
    response: z.unknown().optional(),
    error: z.string().optional(),
  })
  .loose()

/** One model call attempt as the report shows it, under the step it led to. */
export interface ModelCallSummary {
  call: number
  attempt: number
  step: number
  durationMs: number
  status: number | null
  usage: { input_tokens: number; output_tokens: number } | null
  /** What the model answered (its message, tool calls or output items), cut short; or the error. */
  said: string
}

const MAX_SAID = 1_200

/** A run folder's transcript as summaries, in order; lines that cannot be read are left out. */
export function readTranscript(runDir: string, relativePath: string): ModelCallSummary[] {
  let text: string
  try {
    text = readFileSync(join(runDir, relativePath), 'utf8')
  } catch {
    return []
  }
  return text.split('\n').flatMap((raw) => {
    if (!raw.trim()) return []
    let json: unknown
    try {
      json = JSON.parse(raw)
    } catch {
      return []
    }
    const line = TranscriptLine.safeParse(json)
    if (!line.success) return []
    const { call, attempt, step, duration_ms, status, usage, response, error } = line.data
    return [{ call, attempt, step, durationMs: duration_ms, status: status ?? null, usage: usage ?? null, said: error ?? saidBy(response) }]
  })
}

/** The answer's content: a Chat message, the Responses output items, a Messages reply's content blocks, or the raw body. */
function saidBy(response: unknown): string {
  const body = response as { choices?: Array<{ message?: unknown }>; output?: unknown; content?: unknown; error?: unknown } | null
  const content = body?.choices?.[0]?.message ?? body?.output ?? body?.content ?? body?.error ?? response
  const text = typeof content === 'string' ? content : JSON.stringify(content)
  return text.length > MAX_SAID ? `${text.slice(0, MAX_SAID)}…` : text
}
