import { home } from './shell-text.ts'
import { observe, type DesktopCheckContext } from './evidence.ts'
import { report } from './finding.ts'
import { describeActor, isTool, toolName, type Tool } from './tools.ts'
import type { Observation } from '../observer/index.ts'

/**
 * Who made the content now at `path`: the tool's name, another process (named), or why it is not
 * known. A file changed by a process the trace did not see (its ctime is later than any change
 * the trace saw) is not the tool's.
 */
export function authorOf(observation: Observation, path: string, tool: Tool): string {
  if (observation.changedUnseen(path) === true) return 'a process the observer did not see (the file changed after the observer last saw it change)'
  const writer = observation.contentWriter(path)
  if (!writer) return 'no process the observer saw'
  return isTool(writer.by, tool) ? toolName(tool) : describeActor(writer.by)
}

/** Options of `expectWrittenBy`. */
export interface WrittenByOptions {
  /** Where the file is now, when it was moved after `tool` saved it (the move is followed back). */
  now?: string
}

/**
 * `tool` wrote the file: the content now at `path` (or at `now`, where it was moved since) was
 * written by the app's own process, the one the task started (there when the agent's turn
 * began). Needs the app started in `setup_cmd` and the observer (every bundled image has it).
 */
export async function expectWrittenBy({ expect, observed }: DesktopCheckContext, path: string, tool: Tool, { now = path }: WrittenByOptions = {}): Promise<void> {
  const observation = await observe(observed, [now])
  const author = typeof observation === 'string' ? observation : authorOf(observation, now, tool)
  const name = toolName(tool)
  const where = now === path ? home(path) : `${home(now)} (saved as ${home(path)})`
  report(expect, `${name} wrote ${home(path)} (the observer's record)`, {
    pass: author === name,
    message: `the content of ${where} was written by ${author}, expected ${name}, the app the task started (from the observer's record of what the agent's processes wrote)`,
    found: author,
    expected: name,
  })
}
