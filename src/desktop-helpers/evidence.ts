/**
 * Where desktop checks get their evidence: the observer's record (`observed`), kept as root from
 * outside the agent's reach, of what the agent's processes ran and changed, and the windows as
 * the X server says who owns them. Never files the agent could write (shell history,
 * recent-files lists, app settings) or window titles alone. Missing evidence is a reason, and the
 * check that needed it fails with it.
 */
import type { ExpectStatic } from 'vitest'
import type { DesktopObserver, Observation, ObservedWindow } from '../observer/index.ts'
import type { CommandParts } from '../task/agent-test.ts'
import { isTool, toolName, type Tool } from './tools.ts'

/** The observer's record as a check reads it (`observed` in a desktop task's body). */
export type ObservedRecord = Pick<DesktopObserver, 'observation' | 'windows'>

/**
 * What every desktop check takes first: a desktop task body's context, whole (`t`) or as
 * `{ expect, observed, shell }`. The checks record through its `expect`, read `observed`, and run
 * commands with its `shell` (as root, recorded like the task's own).
 */
export interface DesktopCheckContext {
  expect: ExpectStatic
  observed: ObservedRecord
  shell: CommandParts['shell']
}

/** The observation, or the reason there is none. */
export async function observe(observed: ObservedRecord, paths: readonly string[] = []): Promise<Observation | string> {
  try {
    const observation = await observed.observation(paths)
    return observation.gap ?? observation
  } catch (error) {
    return `no record of what the agent ran: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** The viewable windows of the task's own `tool` (the process the task started), or why they are not known. */
export async function toolWindows(observed: ObservedRecord, observation: Observation, tool: Tool): Promise<ObservedWindow[] | string> {
  const pids = [...observation.present.values()].filter((actor) => isTool(actor, tool)).map((actor) => actor.pid)
  if (pids.length === 0) return `${toolName(tool)} was not running when the agent's turn started`
  try {
    return (await observed.windows()).filter((w) => w.viewable && w.pid !== null && pids.includes(w.pid))
  } catch (error) {
    return `the windows could not be read: ${error instanceof Error ? error.message : String(error)}`
  }
}
