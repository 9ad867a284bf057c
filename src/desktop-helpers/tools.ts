/** The apps a desktop check can name, and how a process is told to be one of them. */
import type { Actor } from '../observer/index.ts'

/** The bundled image's apps by the program file they run (a copy elsewhere is not the app). */
export const TOOLS = {
  mousepad: '/usr/bin/mousepad',
  gnumeric: '/usr/bin/gnumeric',
  galculator: '/usr/bin/galculator',
  pcmanfm: '/usr/bin/pcmanfm',
} as const

/**
 * An app a check names: one of the bundled image's (`'mousepad'`), or, in an image of your own,
 * the absolute path of the program the app runs (`'/usr/bin/leafpad'`).
 */
export type Tool = keyof typeof TOOLS | `/${string}`

/** The program file of `tool`. */
export function programOf(tool: Tool): string {
  return tool.startsWith('/') ? tool : TOOLS[tool as keyof typeof TOOLS]
}

/** How a message names `tool`: `mousepad`, or a program's file name. */
export function toolName(tool: Tool): string {
  return tool.startsWith('/') ? tool.slice(tool.lastIndexOf('/') + 1) : tool
}

/** The app the task started: there when the agent's turn began, and still that program. */
export function isTool(actor: Actor, tool: Tool): boolean {
  return actor.present && actor.exe === programOf(tool)
}

/** A process for a sentence: `/usr/bin/mv (pid 85, started by the agent)`. */
export function describeActor(actor: Actor): string {
  const what = actor.exe ?? (actor.argv[0] ? `${actor.argv[0]}?` : 'an unknown process')
  return `${what} (pid ${actor.pid}${actor.present ? '' : ', started by the agent'})`
}
