import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { InputError, issuePath } from '../errors/input-error.ts'
import type { Solution } from '../task/spec.ts'

const Fn = z.custom<Solution>((value) => typeof value === 'function', 'must be an async function')

/**
 * REAL cases come without a reference solution; a folder may add them in `solutions.ts`,
 * `export default { '<REAL id>': { solution, near_misses, alternatives } }`, keyed by the
 * case's REAL id (its file name). They are the agentTest() options of the same names.
 */
export const RealSolution = z.strictObject({
  solution: Fn,
  near_misses: z.record(z.string(), Fn).default({}),
  alternatives: z.record(z.string(), Fn).default({}),
})
export type RealSolution = z.output<typeof RealSolution>
export type RealSolutionInput = z.input<typeof RealSolution>

export const RealSolutions = z.record(z.string(), RealSolution)
export type RealSolutions = z.output<typeof RealSolutions>

export const SOLUTIONS_FILE = 'solutions.ts'

/** The folder's solutions (none when it has no solutions.ts); every key must name a case. */
export async function loadSolutions(folder: string, realIds: readonly string[]): Promise<RealSolutions> {
  const file = join(folder, SOLUTIONS_FILE)
  if (!existsSync(file)) return {}
  const module = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown }
  const parsed = RealSolutions.safeParse(module.default)
  if (!parsed.success) throw InputError.bare(parsed.error.issues.map((issue) => `${file}: ${issuePath(issue.path) || 'export default'}: ${issue.message}`).join('\n'))
  const stray = Object.keys(parsed.data).filter((id) => !realIds.includes(id))
  if (stray.length) throw InputError.bare(stray.map((id) => `${file}: ${id}: no REAL task ${id}.json in ${folder}`).join('\n'))
  return parsed.data
}
