/**
 * Helpers shared by the desktop tasks (this is not a task file: only *.task.ts files are tasks).
 *
 * Setup: `launch()` starts an app in the background and waits until its window has the focus,
 * so the agent never types into a window that is still starting (xterm takes ~5 s to map its
 * first window in a fresh container, longer than the harness waits for windows to settle).
 *
 * Reference solutions act only through the Computer; the `until*` helpers only look at the
 * container (which window has the focus, whether a file exists) so a solution can wait for a
 * dialog to open or a save to land instead of sleeping a fixed time.
 *
 * Checks on how the work was done are in checks.ts (they read the observer's record); the
 * terminal shortcut near misses, and the gate's tricks with them, in shortcuts.ts.
 */
import type { SolutionContext } from 'agentest'

type Desktop = SolutionContext['desktop']

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Shell for setup_cmd: runs `command` in the background and waits until the focused window's
 * title matches `title` (an extended regex, e.g. 'Mousepad$' or '^agent@' for a shell prompt in
 * xterm, whose title bash sets when it prints its first prompt).
 */
export function launch(command: string, title: string): string {
  const pattern = title.replaceAll("'", `'\\''`)
  // In a fresh container an app started in openbox's first second or two sometimes never gets
  // its window mapped (seen with pcmanfm in about one start in five); such a start is killed
  // and tried again. Each try waits up to 20 s (xterm alone needs ~5 s to show its first window),
  // looking every 50 ms: the window is there within one look.
  return [
    'for try in 1 2 3; do',
    `  ${command} >/dev/null 2>&1 &`,
    '  app=$!',
    '  for i in $(seq 400); do',
    `    xdotool getactivewindow getwindowname 2>/dev/null | grep -qE -- '${pattern}' && break 2`,
    '    sleep 0.05',
    '  done',
    '  kill $app; sleep 0.5',
    'done',
    `xdotool getactivewindow getwindowname 2>/dev/null | grep -qE -- '${pattern}' || { echo "no window titled /${pattern}/ came up" >&2; exit 1; }`,
  ].join('\n')
}

/** The title of the focused window, or null when no window has the focus. */
export async function activeTitle(desktop: Desktop): Promise<string | null> {
  const probe = await desktop.shell('xdotool getactivewindow getwindowname', 10_000)
  return probe.exitCode === 0 ? probe.stdout.toString().replace(/\n$/, '') : null
}

async function waitFor(what: () => string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/**
 * Does `act`, then waits for `done` (told how long to wait). On a busy machine an app now and
 * then misses keys that came while it was still busy (a quick Alt+Tab, a folder view still
 * loading, a dialog just drawn), and the step never completes. Then `act` is done again, but
 * only while the focused window is the one the step started in: once the focus has moved, the
 * step is waited for, never done twice.
 */
export async function retrying(
  desktop: Desktop,
  act: (attempt: number) => Promise<void>,
  done: (timeoutMs: number) => Promise<void>,
  tries = 3,
): Promise<void> {
  const before = await activeTitle(desktop)
  for (let attempt = 1; ; attempt++) {
    await act(attempt)
    try {
      return await done(attempt < tries ? 10_000 : 30_000)
    } catch (error) {
      if (attempt >= tries) throw error
      if ((await activeTitle(desktop)) !== before) return await done(30_000)
    }
  }
}

/** Alt+Tab to the window titled `title` (the one used before the focused one). */
export async function altTabTo({ computer, desktop }: SolutionContext, title: RegExp): Promise<void> {
  await retrying(
    desktop,
    () => computer.keypress(['alt', 'tab']),
    (timeoutMs) => untilWindow(desktop, title, timeoutMs),
  )
}

/**
 * Types a full path over a save dialog's name field and presses Enter, then waits for the file.
 * A dialog just drawn can lose the keys; then they are typed again while it is still open.
 */
export async function saveAs({ computer, desktop }: SolutionContext, path: string): Promise<void> {
  await retrying(
    desktop,
    async () => {
      // Whatever the field proposes, select all of it and type over it.
      await computer.keypress(['end'])
      await computer.keypress(['shift', 'home'])
      await computer.type(`${path}\n`)
    },
    (timeoutMs) => untilShell(desktop, `test -s ${path}`, timeoutMs),
  )
}

/**
 * In pcmanfm: picks `item` by typing its name (type-ahead), cuts it (or with `copy`, copies
 * it), then opens `folder` the same way and waits for its window, titled `title`. A folder view
 * still loading misses the typing; then it is all done again (after Escape closes the search
 * box) while the window has not changed.
 */
export async function takeInto(
  { computer, desktop }: SolutionContext,
  item: string,
  folder: string,
  title: RegExp,
  copy = false,
): Promise<void> {
  await retrying(
    desktop,
    async (attempt) => {
      if (attempt > 1) await computer.keypress(['escape'])
      await computer.type(item)
      await computer.keypress(['escape'])
      await computer.keypress(['ctrl', copy ? 'c' : 'x'])
      await computer.type(`${folder}\n`)
    },
    (timeoutMs) => untilWindow(desktop, title, timeoutMs),
  )
}

/** Waits until the focused window's title matches (a dialog opened, an app came to the front). */
export async function untilWindow(desktop: Desktop, title: RegExp, timeoutMs = 30_000): Promise<void> {
  let last: string | null = null
  await waitFor(
    () => `a focused window titled ${title} (last seen: ${JSON.stringify(last)})`,
    async () => {
      last = await activeTitle(desktop)
      return last !== null && title.test(last)
    },
    timeoutMs,
  )
  // A window that just got the focus may not read keys for a moment more.
  await new Promise((resolve) => setTimeout(resolve, 300))
}

/**
 * Waits until a shell test succeeds in the container (a file was saved, a folder exists). It
 * looks as the agent would, so `~` is the agent's home (a check's shell runs as root).
 * A minute: under a full test run an xterm once took more than 30 s to appear.
 */
export async function untilShell(desktop: Desktop, test: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(() => `\`${test}\``, async () => (await desktop.shell(test, 10_000, 'agent')).exitCode === 0, timeoutMs)
}

/** Waits until a drop-down menu is open (a menu bar menu opened from the keyboard, say). */
export async function untilMenuOpen(desktop: Desktop, timeoutMs = 30_000): Promise<void> {
  const probe = [
    'for w in $(xdotool search --onlyvisible --classname . 2>/dev/null); do',
    '  xprop -id $w _NET_WM_WINDOW_TYPE 2>/dev/null | grep -q _NET_WM_WINDOW_TYPE_POPUP_MENU && exit 0',
    'done; exit 1',
  ].join('\n')
  await untilShell(desktop, probe, timeoutMs)
}

/** The container file's text, or null when it does not exist. */
export async function readText(desktop: Desktop, path: string): Promise<string | null> {
  return desktop.readFile(path).then(
    (content) => content.toString('utf8'),
    () => null,
  )
}

/** Parses CSV as spreadsheets write it (quoted fields, doubled quotes); drops a final empty line. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows
}

/**
 * Gnumeric: Data > Export Data > Repeat Export (Ctrl+E) writes the sheet back to the CSV file it
 * was opened from, after a question (a dialog with no title) answered with Enter.
 */
export async function gnumericRepeatExport({ computer, desktop }: SolutionContext): Promise<void> {
  await computer.keypress(['ctrl', 'e'])
  await untilShell(desktop, 'w=$(xdotool getactivewindow) && [ -z "$(xdotool getwindowname $w)" ]')
  await computer.keypress(['enter'])
  await untilWindow(desktop, /Gnumeric$/)
}

/**
 * Gnumeric: Data > Export Data > Export as CSV File (Alt+D, Up to the menu's last item, Right,
 * Down, Enter), then the full path typed over the whole name field. (Ctrl+S would save
 * Gnumeric's own format; its file-type list cannot be reached from the keyboard.)
 */
export async function gnumericExportCsv(context: SolutionContext, path: string): Promise<void> {
  const { computer, desktop } = context
  await computer.keypress(['alt', 'd'])
  await untilMenuOpen(desktop)
  await computer.keypress(['up'])
  await computer.keypress(['right'])
  await computer.keypress(['down'])
  await computer.keypress(['enter'])
  await untilWindow(desktop, /^Export the current workbook or sheet to$/)
  await saveAs(context, path)
}

// ---------------------------------------------------------------------------------------------
// Setup pieces.

/**
 * For setup_cmd: starts galculator. It writes its settings, with the number on its display, to
 * ~/.config/galculator/galculator.conf when it quits, but only if that folder already exists.
 */
export const LAUNCH_CALCULATOR = ['mkdir -p ~/.config/galculator', launch('galculator', '^galculator$')].join('\n')

// ---------------------------------------------------------------------------------------------
// Solution pieces.

/**
 * Types keys into galculator. Its keypad ignores a key pressed again soon after itself, even
 * with other keys between (xdotool types "113" as "13" and "0.005" as "0.05"), so the keys go
 * in runs in which no key repeats, with a pause between runs.
 */
export async function calculate({ computer }: SolutionContext, keys: string): Promise<void> {
  let pending = ''
  for (const key of keys) {
    if (pending.includes(key)) {
      await computer.type(pending)
      await sleep(500)
      pending = ''
    }
    pending += key
  }
  if (pending) await computer.type(pending)
}

/** Galculator: View > Scientific mode (Alt+V, S), which has powers (`^`) and parentheses. */
export async function scientificMode({ computer, desktop }: SolutionContext): Promise<void> {
  await computer.keypress(['alt', 'v'])
  await untilMenuOpen(desktop)
  await computer.keypress(['s'])
}

/** Galculator: View > Paper mode (Alt+V, P): a formula typed into a line, evaluated by Enter. */
export async function paperMode({ computer, desktop }: SolutionContext): Promise<void> {
  await computer.keypress(['alt', 'v'])
  await untilMenuOpen(desktop)
  await computer.keypress(['p'])
}
