import { z } from 'zod'
import { ChecklistItem } from '../../schema/grading.ts'

/** What a judge answers: the checklist it worked through, then the score and why. */
export const Verdict = z
  .object({
    checklist: z.array(ChecklistItem).describe('each question the expectation implies, answered from the evidence alone'),
    score: z.literal([0, 1]).describe('1 if every question is met, else 0'),
    comment: z.string().describe('one or two sentences: why the check passes or fails'),
  })
  .strict()
export type Verdict = z.infer<typeof Verdict>

/** The verdict's JSON schema for structured output (strict mode: every key required, no others). */
export function verdictJsonSchema(): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(Verdict) as Record<string, unknown>
  return schema
}

/**
 * Servers without structured output wrap JSON in prose or code fences and spell scores as
 * strings or booleans; those are read leniently. Anything else is not a verdict.
 */
const LenientVerdict = z.object({
  checklist: z
    .array(z.object({ question: z.coerce.string(), answer: z.coerce.string(), met: z.coerce.boolean() }))
    .catch([]),
  score: z.preprocess((v) => (v === true || v === '1' ? 1 : v === false || v === '0' ? 0 : v), z.literal([0, 1])),
  comment: z.string(),
})

export type ParsedVerdict = { ok: true; verdict: Verdict } | { ok: false; problem: string }

export function parseVerdict(text: string): ParsedVerdict {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end < start) return { ok: false, problem: `no JSON object in the answer: ${preview(text)}` }
  let json: unknown
  try {
    json = JSON.parse(text.slice(start, end + 1))
  } catch (error) {
    return { ok: false, problem: `not JSON (${error instanceof Error ? error.message : String(error)}): ${preview(text)}` }
  }
  const parsed = LenientVerdict.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { ok: false, problem: `not a verdict: ${issue?.path.join('.') || 'body'}: ${issue?.message}` }
  }
  return { ok: true, verdict: parsed.data }
}

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 119)}…` : line)
}
