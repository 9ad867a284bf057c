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
 */
import type { SolutionContext } from 'agentest'

type Desktop = SolutionContext['desktop']

/**
 * Shell for setup_cmd: runs `command` in the background and waits until the focused window's
 * title matches `title` (an extended regex, e.g. 'Mousepad$' or '^agent@' for a shell prompt in
 * xterm, whose title bash sets when it prints its first prompt).
 */
export function launch(command: string, title: string): string {
  const pattern = title.replaceAll("'", `'\\''`)
  // In a fresh container an app started in openbox's first second or two sometimes never gets
  // its window mapped (seen with pcmanfm in about one start in five); such a start is killed
  // and tried again. Each try waits up to 20 s (xterm alone needs ~5 s to show its first window).
  return [
    'for try in 1 2 3; do',
    `  ${command} >/dev/null 2>&1 &`,
    '  app=$!',
    '  for i in $(seq 100); do',
    `    xdotool getactivewindow getwindowname 2>/dev/null | grep -qE -- '${pattern}' && break 2`,
    '    sleep 0.2',
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
 */
export async function untilShell(desktop: Desktop, test: string, timeoutMs = 30_000): Promise<void> {
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

/** Every number written in a text ("17,520", "$531.85", "-3"), thousands separators removed. */
export function numbersIn(text: string | null | undefined): number[] {
  if (!text) return []
  const joined = text.replaceAll(/(\d)[,\u00a0\u202f ](?=\d{3}(?!\d))/g, '$1')
  return [...joined.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]))
}

/** Whether some number in the text is within `tolerance` of `value`. */
export function mentionsNumber(text: string | null | undefined, value: number, tolerance = 1e-9): boolean {
  return numbersIn(text).some((n) => Math.abs(n - value) <= tolerance)
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
export async function gnumericExportCsv({ computer, desktop }: SolutionContext, path: string): Promise<void> {
  await computer.keypress(['alt', 'd'])
  await untilMenuOpen(desktop)
  await computer.keypress(['up'])
  await computer.keypress(['right'])
  await computer.keypress(['down'])
  await computer.keypress(['enter'])
  await untilWindow(desktop, /^Export the current workbook or sheet to$/)
  // The name field holds "<book>.csv" with "<book>" selected: select it all and type over it.
  await computer.keypress(['end'])
  await computer.keypress(['shift', 'home'])
  await computer.type(`${path}\n`)
  await untilShell(desktop, `test -s ${path}`)
}
