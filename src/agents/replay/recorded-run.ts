import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ComputerAction } from '../../schema/action.ts'
import { TestCaseRun } from '../../schema/run.ts'

/** One recorded action with the thought that preceded it. */
export interface RecordedStep {
  action: ComputerAction
  thought: string
}

/**
 * Finds a task's record from `from`: a `<task>.json` file, a run folder, or a run id under the
 * results dir (relative paths are tried against the working directory first).
 */
export function findRecordedRun(from: string, key: string, resultsDir: string | null, cwd = process.cwd()): string {
  const places = [resolve(cwd, from), ...(resultsDir ? [resolve(resultsDir, from)] : [])]
  const found = places.find((place) => existsSync(place))
  if (!found) throw bare(`agent.options.from: no run file or folder at "${from}" (looked in ${places.join(' and ')})`)
  if (!statSync(found).isDirectory()) return found
  const file = join(found, `${key}.json`)
  if (!existsSync(file)) throw bare(`agent.options.from: ${found} has no ${key}.json (the task is not in that run)`)
  return file
}

export function loadRecordedRun(file: string): TestCaseRun {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw bare(`${file}: not a TestCaseRun JSON file (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`)
  }
  const parsed = TestCaseRun.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw bare(`${file}: not a TestCaseRun: ${issue.path.join('.')}: ${issue.message}`)
  }
  return parsed.data
}

/** Every task record in a run folder (not summary.json). */
export function loadRunFolder(dir: string): TestCaseRun[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== 'summary.json')
    .map((name) => loadRecordedRun(join(dir, name)))
}

/** The run's computer actions in order (the final-answer message step is not an action). */
export function recordedSteps(run: TestCaseRun): RecordedStep[] {
  return run.trajectory.flatMap((step) => (step.action.type === 'message' ? [] : [{ action: step.action, thought: step.thought }]))
}

/** The web clone's origin when the run was recorded (clones get a new port per run). */
export function recordedOrigin(run: TestCaseRun): string | null {
  for (const step of run.trajectory) {
    if (step.url && /^https?:/.test(step.url)) return new URL(step.url).origin
  }
  return null
}

/** Moves a recorded URL from the recorded clone's origin to today's; other URLs stay as they are. */
export function rebase(url: string, recorded: string | null, current: string | null): string {
  if (!recorded || !current) return url
  const parsed = new URL(url)
  if (parsed.origin !== recorded) return url
  return new URL(`${parsed.pathname}${parsed.search}${parsed.hash}`, current).href
}

function bare(message: string): Error {
  const error = new Error(message)
  error.stack = `Error: ${message}`
  return error
}
