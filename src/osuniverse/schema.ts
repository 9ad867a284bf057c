import { z } from 'zod'
import { Level } from '../schema/task.ts'

/**
 * One OSUniverse test case as its YAML holds it (testcases/<category>/<id>.yaml, read by
 * OSUniverse's TestCase.from_yaml). Keys it does not use are tolerated, as OSUniverse ignores
 * them; a wrong type is refused, one line per field.
 */

/** The words a wrong value is refused with: `expected text, got a number (3)`. */
function got(input: unknown): string {
  if (input === undefined) return 'nothing'
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'a list'
  if (typeof input === 'object') return 'a mapping'
  return `a ${typeof input} (${JSON.stringify(input)})`
}

const text = (what = 'text') =>
  z.string({ error: (issue) => (issue.input === undefined ? `missing (expected ${what})` : `expected ${what}, got ${got(issue.input)}`) })

const rubric = () => text('a rubric (text)').min(1, 'a rubric cannot be empty')

export const CHECK_TYPES = ['returned_result', 'final_screenshot', 'expected_flow', 'command_output'] as const

const judged = (type: Exclude<(typeof CHECK_TYPES)[number], 'command_output'>) => z.looseObject({ type: z.literal(type), value: rubric() })

/** Why a check matched none of the four kinds. */
function checkType(check: unknown): string {
  if (check === null || typeof check !== 'object' || Array.isArray(check)) return `expected a check (a mapping with a type), got ${got(check)}`
  const type = (check as { type?: unknown }).type
  if (typeof type === 'string') return `unknown check type "${type}"`
  return type === undefined ? 'missing' : `got ${got(type)}`
}

export const OsuniverseCheck = z.discriminatedUnion(
  'type',
  [
    judged('returned_result'),
    judged('final_screenshot'),
    judged('expected_flow'),
    z.looseObject({ type: z.literal('command_output'), command: text('a shell command').min(1, 'a command cannot be empty'), value: rubric() }),
  ],
  { error: (issue) => `${checkType(issue.input)}; OSUniverse's types: ${CHECK_TYPES.join(', ')}` },
)
export type OsuniverseCheck = z.infer<typeof OsuniverseCheck>

export const OsuniverseCase = z.looseObject({
  name: text().min(1, 'a name cannot be empty'),
  level: z.enum(Level.options, {
    error: (issue) => `${issue.input === undefined ? 'missing' : `got ${got(issue.input)}`}; OSUniverse's levels: ${Level.options.join(', ')}`,
  }),
  task: text().trim().min(1, 'a task cannot be empty'),
  /** OSUniverse writes "None" (a string under YAML) for no setup; null is read the same. */
  setup_cmd: text('a shell command').nullable().optional(),
  desktop_image: text('an image name').min(1, 'an image name cannot be empty'),
  checks: z
    .array(OsuniverseCheck, { error: (issue) => `expected a list of checks, got ${got(issue.input)}` })
    .min(1, 'a case needs at least one check (without one it would pass whatever the agent did)'),
})
export type OsuniverseCase = z.infer<typeof OsuniverseCase>
