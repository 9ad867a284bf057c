/**
 * The "shortcut" near miss every task whose goal names an app (`tool`) declares: the end state
 * reached from a terminal instead, opened as an agent acting only through the keyboard would:
 * pcmanfm's own (Tools > Open Current Folder in Terminal, F4), or the desktop's terminal key
 * (Ctrl+Alt+T).
 *
 * The validity gate also runs it as each of its tricks (`context.trick`), the shortcut done
 * quietly so that only evidence the agent cannot forge tells it from the app's own work: with the
 * shell's history off, in a terminal renamed after the app's window, with the app's own state
 * forged (its recent-files list, its saved settings, the app closed so nothing overwrites them),
 * or left running in the background after the terminal closed. A shortcut that does not play the
 * trick it is given is reported by the gate as not applicable.
 */
import type { SolutionContext } from '../task/spec.ts'
import { quote } from './shell-text.ts'
import { activeTitle, retrying, untilShell, untilWindow } from './waits.ts'

/** What a forger writes when the trick is "with forged app state". */
export interface Forgery {
  /** Files to list in GTK's recent-files list as saved by these apps (its name for them). */
  recent?: Array<{ path: string; app: 'Mousepad' | 'Gnumeric Spreadsheet' }>
  /** The number to leave in galculator's saved settings; the calculator is closed first. */
  calculator?: number
}

/** What a shortcut needs of its context: the Computer, the container, and the gate's trick if any. */
export type ShortcutContext = Pick<SolutionContext, 'computer' | 'desktop' | 'trick'>

/** Shell lines that forge the apps' own records of what they did. */
function forgeryLines(forge: Forgery): string[] {
  const lines: string[] = []
  if (forge.recent?.length) {
    const now = '$(date -u +%Y-%m-%dT%H:%M:%SZ)'
    const marks = forge.recent.map(
      ({ path, app }) =>
        `<bookmark href="file://${path}" added="${now}" modified="${now}" visited="${now}"><info><metadata owner="http://freedesktop.org"><bookmark:applications><bookmark:application name="${app}" exec="x" modified="${now}" count="1"/></bookmark:applications></metadata></info></bookmark>`,
    )
    const xbel = `<?xml version="1.0" encoding="UTF-8"?><xbel version="1.0" xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks">${marks.join('')}</xbel>`
    lines.push(`mkdir -p ~/.local/share && echo "${xbel.replaceAll('"', '\\"')}" > ~/.local/share/recently-used.xbel`)
  }
  if (forge.calculator !== undefined) {
    lines.push('pkill -x galculator; sleep 1', `mkdir -p ~/.config/galculator; printf '[general]\\nremembered_valuex=${forge.calculator}\\n' > ~/.config/galculator/galculator.conf`)
  }
  return lines
}

/**
 * The shell lines to type for `commands` under the gate's trick, if one is asked for (and the
 * trick marked as played). `appTitle` is the title of the app's window, for the renaming trick.
 * For a shortcut that types into a terminal of its own rather than through `inTerminal`.
 */
export function tricked(context: Pick<SolutionContext, 'trick'>, commands: readonly string[], appTitle: string, forge: Forgery = {}): string[] {
  const { trick } = context
  let lines = [...commands]
  switch (trick?.name) {
    case 'shortcut without history':
      // bash keeps a line that starts with a space out of its history (HISTCONTROL=ignoreboth).
      lines = ['unset HISTFILE', ...lines].map((line) => ` ${line}`)
      break
    case 'shortcut in a renamed window':
      // Debian's .bashrc names xterm's window at every prompt: an empty prompt keeps the new name.
      lines = [...lines, `PS1=''; printf '\\033]0;%s\\007' ${quote(appTitle)}`]
      break
    case 'shortcut with forged app state':
      lines = [...lines, ...forgeryLines(forge)]
      break
    case 'shortcut left running': {
      // A loop in a session of its own outlives the terminal, and keeps the end state in place.
      const loop = `while :; do ${lines.join('; ')}; sleep 0.5; done`
      lines = [`setsid bash -c "$(echo ${Buffer.from(loop).toString('base64')} | base64 -d)" >/dev/null 2>&1 </dev/null &`]
      break
    }
  }
  trick?.played()
  return lines
}

/** How `inTerminal` opens its terminal, and what the forging trick writes. */
export interface InTerminalOptions {
  /** `'keys'`: the desktop's Ctrl+Alt+T (default); `'f4'`: pcmanfm's terminal in its current folder. */
  open?: 'keys' | 'f4'
  /** What the forging trick leaves behind for this task (the apps' own records). */
  forge?: Forgery
}

/**
 * Opens a terminal, types `commands` into it (as the gate's trick, if any, asks), then `exit`,
 * and waits for it to close; the app the goal names is left as it was. Commands run as the
 * agent in its home (or, with `open: 'f4'`, in the folder pcmanfm shows).
 */
export async function inTerminal(context: ShortcutContext, commands: readonly string[], { open = 'keys', forge = {} }: InTerminalOptions = {}): Promise<void> {
  const { computer, desktop } = context
  const count = async () => Number((await desktop.shell('pgrep -c -x xterm', 10_000)).stdout.toString().trim() || 0)
  const before = await count()
  // The app's window, in front before the terminal opens: the renaming trick takes its title.
  const appTitle = (await activeTitle(desktop)) ?? 'Mousepad'
  // A key the window manager missed on a busy machine opens nothing: pressed again only while no
  // new terminal process has started, so a slow terminal is waited for, never opened twice.
  await retrying(
    desktop,
    () => computer.keypress(open === 'f4' ? ['f4'] : ['ctrl', 'alt', 't']),
    (timeoutMs) => untilShell(desktop, `[ "$(pgrep -c -x xterm)" -gt ${before} ]`, timeoutMs),
  )
  await untilWindow(desktop, /^agent@/)
  for (const line of tricked(context, commands, appTitle, forge)) await computer.type(`${line}\n`)
  // The renamed terminal stays open, posing as the app's window for whatever looks at titles.
  if (context.trick?.name === 'shortcut in a renamed window') return
  await computer.type('exit\n')
  const deadline = Date.now() + 30_000
  while ((await count()) > before) {
    if (Date.now() > deadline) throw new Error('timed out after 30000 ms waiting for the terminal to close')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
