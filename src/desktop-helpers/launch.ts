/**
 * Setup: starting an app for the agent, waited for until its window has the focus, so the agent
 * never types into a window that is still starting.
 */
import { quote, shellPath } from './shell-text.ts'

/**
 * What an app needs before it starts, by its program's name. galculator saves its settings,
 * with the number on its display, when it quits, but only into a folder that already exists;
 * without it `expectCalculatorShows` has nothing to read.
 */
const PREPARE: Record<string, string> = {
  galculator: 'mkdir -p ~/.config/galculator',
}

/** The program `command` starts: `mousepad ~/note.txt` -> `mousepad`. */
function programOf(command: string): string {
  const first = command.trim().split(/\s+/)[0] ?? ''
  return first.slice(first.lastIndexOf('/') + 1)
}

/**
 * Shell for `setup_cmd`: runs `command` in the background and waits until the focused window's
 * title matches `title` (an extended regex, as `grep -E` reads it: `'Mousepad$'`, or `'^agent@'`
 * for a shell prompt in xterm, whose title bash sets when it prints its first prompt). What the
 * app needs first is done too (galculator: its settings folder). Up to three starts of 20 s each;
 * the setup fails, naming the title, when no such window came up.
 */
export function launch(command: string, title: string): string {
  const pattern = quote(title)
  const prepare = PREPARE[programOf(command)]
  // In a fresh container an app started in openbox's first second or two sometimes never gets
  // its window mapped (seen with pcmanfm in about one start in five); such a start is killed
  // and tried again. Each try waits up to 20 s (xterm alone needs ~5 s to show its first window),
  // looking every 50 ms: the window is there within one look.
  return [
    ...(prepare ? [prepare] : []),
    'for try in 1 2 3; do',
    `  ${command} >/dev/null 2>&1 &`,
    '  app=$!',
    '  for i in $(seq 400); do',
    `    xdotool getactivewindow getwindowname 2>/dev/null | grep -qE -- ${pattern} && break 2`,
    '    sleep 0.05',
    '  done',
    '  kill $app; sleep 0.5',
    'done',
    `xdotool getactivewindow getwindowname 2>/dev/null | grep -qE -- ${pattern} || { echo ${quote(`no window titled /${title}/ came up`)} >&2; exit 1; }`,
  ].join('\n')
}

/** The apps of the bundled image `agentest/desktop` that `launchApp` knows. */
export type BundledApp = 'mousepad' | 'gnumeric' | 'galculator' | 'pcmanfm' | 'xterm'

/** The title each app's window has once it is up (for pcmanfm, the folder's name). */
function titleOf(app: BundledApp, path: string | undefined): string {
  switch (app) {
    case 'mousepad':
      return 'Mousepad$'
    case 'gnumeric':
      return 'Gnumeric$'
    case 'galculator':
      return '^galculator$'
    case 'xterm':
      return '^agent@'
    case 'pcmanfm': {
      const folder = (path ?? '~').replace(/(.)\/+$/, '$1')
      const name = folder === '~' ? 'agent' : folder.slice(folder.lastIndexOf('/') + 1)
      return `^${name.replace(/[.[\]()*+?^${}|\\]/g, '\\$&')}$`
    }
  }
}

/**
 * Shell for `setup_cmd`: starts one of the bundled image's apps and waits for its window, with
 * the title and preparation it needs. `path` is the file it opens (mousepad, gnumeric) or the
 * folder it shows (pcmanfm; default the agent's home); `~/` is the agent's home.
 *
 * @example setup_cmd: ['touch ~/note.txt', launchApp('mousepad', '~/note.txt')].join('\n')
 */
export function launchApp(app: 'galculator' | 'xterm'): string
export function launchApp(app: 'mousepad' | 'gnumeric' | 'pcmanfm', path?: string): string
export function launchApp(app: BundledApp, path?: string): string {
  // pcmanfm without a folder would show the setup's working folder: the home is said outright.
  const target = app === 'pcmanfm' ? (path ?? '~') : path
  const command = target === undefined || app === 'galculator' || app === 'xterm' ? app : `${app} ${shellPath(target)}`
  return launch(command, titleOf(app, target))
}
