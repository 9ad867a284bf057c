import { home } from './shell-text.ts'
import { observe, type DesktopCheckContext } from './evidence.ts'
import { report } from './finding.ts'
import { describeActor, isTool, toolName, type Tool } from './tools.ts'

/** How many changes a failure lists before it counts the rest. */
const MAX_SHOWN = 10

/** Options of `expectChangedOnlyBy`. */
export interface ChangedOnlyByOptions {
  /** The folder whose files are watched (default the agent's home, `/home/agent`). */
  under?: string
}

/**
 * Only the named apps changed the files under `under` during the agent's turn: no terminal,
 * shell or other program made, moved, wrote or removed any of them (looking around is fine).
 * Hidden files and folders (apps' settings, caches) are left out unless a move touched a visible
 * one. `what` says what was done, for the check's name ("the images were moved").
 */
export async function expectChangedOnlyBy({ expect, observed }: DesktopCheckContext, tools: readonly Tool[], what: string, { under = '/home/agent' }: ChangedOnlyByOptions = {}): Promise<void> {
  const observation = await observe(observed)
  const visible = (path: string | undefined) => path !== undefined && path.startsWith(`${under}/`) && !path.slice(under.length).split('/').some((part) => part.startsWith('.'))
  const others =
    typeof observation === 'string'
      ? [observation]
      : observation
          .changes()
          .filter((c) => c.at <= (observation.turnEnd ?? Infinity) && (visible(c.path) || visible(c.from)) && !tools.some((tool) => isTool(c.by, tool)))
          .map((c) => `${c.op} ${home(c.path)}${c.from ? ` (from ${home(c.from)})` : ''} by ${describeActor(c.by)}`)
  // A loop left running writes the same file again and again: each change is said once.
  const said = [...new Set(others)]
  const shown = said.length > MAX_SHOWN ? [...said.slice(0, MAX_SHOWN), `and ${said.length - MAX_SHOWN} more`] : said
  const names = tools.map(toolName).join(' and ')
  report(expect, `${what} with ${names} only (the observer's record)`, {
    pass: others.length === 0,
    message: `files under ${home(under)} were changed by other programs than ${names}: ${shown.join('; ')} (from the observer's record of what the agent's processes changed), expected ${names} alone`,
    found: shown.join('\n'),
    expected: `changes by ${names} only`,
  })
}
