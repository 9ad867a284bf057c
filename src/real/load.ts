import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { InputError, issuePath } from '../errors/input-error.ts'
import { TaskId } from '../schema/task.ts'
import { unreachable } from './reach.ts'
import { RealTask } from './schema.ts'

/** One REAL task file, validated. */
export interface RealCase {
  /** The file, as the folder was named (for messages). */
  file: string
  /** REAL's id: the file's name without `.json` (REAL's loader also lets the file name win). */
  realId: string
  /** agentest's task id: `real-<REAL id>`. */
  id: string
  task: RealTask
}

/**
 * Every `*.json` of `folder`, in name order. Mistakes are gathered over all files and thrown as
 * one InputError, a line each, naming the file and the field: `x.json: evals[1].query: ...`.
 */
export function loadRealTasks(folder: string): RealCase[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw InputError.bare(`${folder}: no such folder of REAL task files (AGENTEST_REAL_TASKS)`)
  const files = readdirSync(folder).filter((name) => name.endsWith('.json')).sort()
  if (files.length === 0) throw InputError.bare(`${folder}: no REAL task files (*.json) in it`)
  const problems: string[] = []
  const cases = files.flatMap((name) => {
    const file = join(folder, name)
    const found = readCase(file)
    if ('problems' in found) problems.push(...found.problems.map((line) => `${file}: ${line}`))
    return 'problems' in found ? [] : [found]
  })
  if (problems.length) throw InputError.bare(problems.join('\n'))
  return cases
}

function readCase(file: string): RealCase | { problems: string[] } {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return { problems: [`not valid JSON: ${error instanceof Error ? error.message : String(error)}`] }
  }
  const parsed = RealTask.safeParse(json)
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => `${issuePath(issue.path) || '(the file)'}: ${issue.message}`) }
  const realId = basename(file, '.json')
  const id = `real-${realId}`
  const problems: string[] = []
  if (!TaskId.safeParse(id).success) problems.push(`id: the task id comes from the file name, "${realId}": use lowercase letters, digits, ".", "_" and "-"`)
  parsed.data.evals.forEach((spec, index) => {
    if (spec.type !== 'jmespath') return
    // A query that cannot run fails on REAL too, every time: a mistake in the file, not an unmapped eval.
    try {
      unreachable(spec.query)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const parse = error instanceof Error && /parser|lexer/i.test(error.name)
      problems.push(`evals[${index}].query: ${parse ? `does not parse as JMESPath: ${message}` : message}`)
    }
  })
  return problems.length ? { problems } : { file, realId, id, task: parsed.data }
}
