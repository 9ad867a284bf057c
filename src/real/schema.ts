import { z } from 'zod'

/**
 * REAL's task JSON (agi-inc/agisdk, `webclones/v1/tasks/*.json` and v2), as its loader reads it.
 * Fields this file does not name are kept and ignored, as REAL's own loader ignores them.
 */

/** A required string; missing, it says what it is for rather than zod's "expected string". */
function text(missing: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? missing : 'must be a string') }).trim().min(1, missing)
}


/** A query over REAL's `/finish` JSON, compared with `expected_value` by Python's `==`. */
export const JmespathEval = z.looseObject({
  type: z.literal('jmespath'),
  query: text('a jmespath eval needs a query'),
  expected_value: z.unknown().refine((value) => value !== undefined, 'a jmespath eval needs an expected_value (any JSON value)'),
  description: z.string().optional(),
})
export type JmespathEval = z.infer<typeof JmespathEval>

/** A rubric the grader model scores the agent's final message against. */
export const LlmBooleanEval = z.looseObject({
  type: z.literal('llm_boolean'),
  rubric: text('an llm_boolean eval needs a rubric'),
  expected_value: z.unknown().optional(),
  description: z.string().optional(),
})
export type LlmBooleanEval = z.infer<typeof LlmBooleanEval>

/** v2: a Python script run on REAL's state. */
export const ScriptEval = z.looseObject({
  type: z.literal('script'),
  script: text('a script eval names its script'),
  description: z.string().optional(),
})
export type ScriptEval = z.infer<typeof ScriptEval>

const EVAL_TYPES = ['jmespath', 'llm_boolean', 'script'] as const

/** REAL gives an eval with a `script` and no `type` the type "script". */
function withScriptType(value: unknown): unknown {
  if (value && typeof value === 'object' && !('type' in value) && 'script' in value) return { ...value, type: 'script' }
  return value
}

export const RealEval = z.preprocess(
  withScriptType,
  z.discriminatedUnion('type', [JmespathEval, LlmBooleanEval, ScriptEval], {
    error: (issue) => (issue.code === 'invalid_union' ? `type must be one of ${EVAL_TYPES.join(', ')}` : undefined),
  }),
)
export type RealEval = z.infer<typeof RealEval>

export const RealWebsite = z.looseObject(
  {
    id: text('name the web clone, e.g. "omnizon"'),
    name: z.string().optional(),
    similarTo: z.string().optional(),
    previewImage: z.string().optional(),
    url: z.string().optional(),
  },
  { error: (issue) => (issue.input === undefined ? 'every task names its web clone: { "id": "omnizon", ... }' : undefined) },
)

export const RealTask = z.looseObject({
  id: text('every task needs an id'),
  goal: text('every task needs a goal'),
  website: RealWebsite,
  difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  challengeType: z.enum(['action', 'retrieval', 'retrieval-action', 'no-action']).optional(),
  /** REAL's harness skips tasks marked impossible by default. */
  possible: z.boolean().default(true),
  // With no eval, every run would pass: REAL's all([]) is true.
  evals: z
    .array(RealEval, { error: (issue) => (issue.input === undefined ? 'every task needs evals' : undefined) })
    .min(1, 'a task needs at least one eval (with none, every run passes)'),
  points: z.number().default(1),
  config: z.record(z.string(), z.unknown()).default({}),
  version: z.string().optional(),
  description: z.string().optional(),
})
export type RealTask = z.infer<typeof RealTask>
