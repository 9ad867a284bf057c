/**
 * Checks on how a desktop task was done, read from the observer's record (`observed`): what the
 * agent's processes ran and changed, traced as root from outside the agent's reach, and the
 * windows as the X server says who owns them. Never from files the agent could write (shell
 * history, recent-files lists, app settings) or window titles alone. Evidence that is missing
 * fails the check, with the reason.
 */
import type { Actor, Observation, TaskContext } from 'agentest'

type Expect = TaskContext['expect']
type Observed = TaskContext['observed']
type Shell = TaskContext['shell']

/** The apps the tasks name, by the program file they run (a copy elsewhere is not the app). */
export const TOOL = {
  mousepad: '/usr/bin/mousepad',
  gnumeric: '/usr/bin/gnumeric',
  galculator: '/usr/bin/galculator',
  pcmanfm: '/usr/bin/pcmanfm',
} as const
export type Tool = keyof typeof TOOL

const home = (path: string) => path.replace(/^\/home\/agent\//, '~/')

/** A process for a sentence: `/usr/bin/mv (pid 85, started by the agent)`. */
function describeActor(actor: Actor): string {
  const what = actor.exe ?? (actor.argv[0] ? `${actor.argv[0]}?` : 'an unknown process')
  return `${what} (pid ${actor.pid}${actor.present ? '' : ', started by the agent'})`
}

/** The app the task started (there when the agent's turn began, still that program). */
function isTool(actor: Actor, tool: Tool): boolean {
  return actor.present && actor.exe === TOOL[tool]
}

/** The observation, or the reason there is none (then the check fails with it). */
async function observe(observed: Observed, paths: string[] = []): Promise<Observation | string> {
  try {
    const observation = await observed.observation(paths)
    return observation.gap ?? observation
  } catch (error) {
    return `no record of what the agent ran: ${error instanceof Error ? error.message : String(error)}`
  }
}

/**
 * Who made the content now at `path`: the tool, another process (named), or why it is not known.
 * A file changed by a process the trace did not see (its ctime is later than any change the trace
 * saw) is not the tool's.
 */
function authorOf(observation: Observation, path: string, tool: Tool): string {
  if (observation.changedUnseen(path) === true) return `changed after the observer last saw it, by a process it did not see`
  const writer = observation.contentWriter(path)
  if (!writer) return 'no process the observer saw'
  return isTool(writer.by, tool) ? tool : describeActor(writer.by)
}

/**
 * The app wrote the file: its content was written by the app's process (the one the task
 * started), moves since included (`now` is where the file is if it was moved after the save).
 */
export async function expectWrittenBy(expect: Expect, observed: Observed, path: string, tool: Tool, now = path): Promise<void> {
  const observation = await observe(observed, [now])
  const author = typeof observation === 'string' ? observation : authorOf(observation, now, tool)
  expect(author, `${tool} wrote ${home(path)} (the observer's record)`).toBe(tool)
}

/**
 * Only the named apps changed the files under `under` during the agent's turn: no terminal,
 * shell or other program made, moved, wrote or removed any of them (looking around is fine).
 * Hidden files and folders (apps' settings, caches) are left out unless a move touched a visible one.
 */
export async function expectChangedOnlyBy(expect: Expect, observed: Observed, tools: Tool[], what: string, under = '/home/agent'): Promise<void> {
  const observation = await observe(observed)
  const visible = (path: string | undefined) => path !== undefined && path.startsWith(`${under}/`) && !path.slice(under.length).split('/').some((part) => part.startsWith('.'))
  const others =
    typeof observation === 'string'
      ? [observation]
      : observation
          .changes()
          .filter((c) => c.at <= (observation.turnEnd ?? Infinity) && (visible(c.path) || visible(c.from)) && !tools.some((tool) => isTool(c.by, tool)))
          .map((c) => `${c.op} ${home(c.path)}${c.from ? ` (from ${home(c.from)})` : ''} by ${describeActor(c.by)}`)
  expect(others, `${what} with ${tools.join(' and ')} only (the observer's record)`).toEqual([])
}

/** The viewable windows of the task's own `tool`, by the X server's word on who owns them. */
async function toolWindows(observed: Observed, tool: Tool): Promise<Array<{ id: number; name: string }> | string> {
  const observation = await observe(observed)
  if (typeof observation === 'string') return observation
  const pids = [...observation.present.values()].filter((actor) => isTool(actor, tool)).map((actor) => actor.pid)
  if (pids.length === 0) return `${tool} was not running when the agent's turn started`
  try {
    return (await observed.windows()).filter((w) => w.viewable && w.pid !== null && pids.includes(w.pid))
  } catch (error) {
    return `the windows could not be read: ${error instanceof Error ? error.message : String(error)}`
  }
}

/**
 * Mousepad saved the file it has open: its own process wrote the file, one of its windows shows
 * the file with no unsaved changes, and focusing that window raises no "Externally Modified"
 * question (Mousepad asks it when the file on disk changed behind its back). The editor the task
 * opened must still be open.
 */
export async function expectEditorSaved(expect: Expect, observed: Observed, shell: Shell, path: string): Promise<void> {
  await expectWrittenBy(expect, observed, path, 'mousepad')
  const title = `${home(path)} - Mousepad`
  const windows = await toolWindows(observed, 'mousepad')
  const shown = typeof windows === 'string' ? [windows] : windows.map((w) => w.name)
  expect(shown, `the text editor the task opened still has ${home(path)} open, saved`).toContain(title)
  const window = typeof windows === 'string' ? undefined : windows.find((w) => w.name === title)
  if (!window) return
  const probe = await shell(
    [
      // Not --sync: the question takes the focus when it comes up, and --sync then waits ~15 s.
      // It comes within 0.05 s of the window's activation (measured with both cores busy), so
      // 1.5 s of the window in front without it is a wide margin.
      `w=${window.id}; xdotool windowactivate "$w" >/dev/null 2>&1; quiet=0`,
      'for i in $(seq 65); do',
      "  xdotool search --onlyvisible --name '^Externally Modified$' >/dev/null 2>&1 && { echo 'warning: Externally Modified'; break; }",
      '  [ "$(xdotool getactivewindow 2>/dev/null)" = "$w" ] && quiet=$((quiet + 1))',
      '  [ $quiet -ge 15 ] && break',
      '  sleep 0.1',
      'done',
      'exit 0',
    ].join('\n'),
  )
  expect(probe.stdout.trim(), `the editor did not find ${home(path)} changed behind its back`).toBe('')
}

const CALCULATOR_SETTINGS = '/home/agent/.config/galculator/galculator.conf'

/**
 * Galculator holds the result: the number on its display, which it saves as it quits. The
 * calculator the task started must have written its settings during the turn or the checks: the
 * agent quit it, or it is still open and the check quits it (settings written by anything else,
 * or before the agent's turn, are not read). Being in paper mode, whose paper no check can read,
 * is taken as the calculator having been used.
 */
export async function expectCalculatorShows(expect: Expect, observed: Observed, shell: Shell, result: number, tolerance = 1e-9): Promise<void> {
  const windows = await toolWindows(observed, 'galculator')
  let shown: number | string
  if (typeof windows === 'string') shown = windows
  else {
    if (windows.length > 0) {
      // galculator maps a second, inert window: the one with the focus, else the last, gets Ctrl+Q.
      const ids = windows.map((w) => w.id)
      await shell(
        [
          `a=$(xdotool getactivewindow 2>/dev/null); w=${ids.at(-1)}; for x in ${ids.join(' ')}; do [ "$x" = "$a" ] && w=$x; done`,
          '[ "$w" = "$a" ] || xdotool windowactivate --sync "$w" >/dev/null 2>&1; sleep 0.3; xdotool key --clearmodifiers ctrl+q',
          'for i in $(seq 40); do pgrep -x galculator >/dev/null || break; sleep 0.25; done',
          'exit 0',
        ].join('\n'),
      )
    }
    const observation = await observe(observed, [CALCULATOR_SETTINGS])
    const writer = typeof observation === 'string' ? null : observation.contentWriter(CALCULATOR_SETTINGS)
    if (typeof observation === 'string') shown = observation
    else if (observation.changedUnseen(CALCULATOR_SETTINGS) === true) shown = 'its settings were changed by a process the observer did not see'
    else if (!writer || !isTool(writer.by, 'galculator') || writer.at < observation.turnStart) {
      shown = `the calculator the task started did not save its display (its settings were last written by ${writer ? describeActor(writer.by) : 'no process the observer saw'})`
    } else {
      // As the agent: ~/.config is private (mode 700). The agent's processes are stopped by now.
      const saved = await shell(`grep -E '^(mode|remembered_valuex)=' ${CALCULATOR_SETTINGS}; exit 0`, { as: 'agent' })
      const setting = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, 'm').exec(saved.stdout)?.[1] ?? null
      shown = setting('mode') === '2' ? 'paper mode' : setting('remembered_valuex') === null ? 'nothing' : Number(setting('remembered_valuex'))
    }
  }
  expect(shown, `the calculator was used: it shows ${Number(result.toFixed(4))} (or is in paper mode)`).toSatisfy(
    (value: number | string) => value === 'paper mode' || (typeof value === 'number' && Math.abs(value - result) <= tolerance),
  )
}
