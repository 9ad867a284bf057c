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
 * Checks: a goal that names an app is checked on that app's own state, not only on the end
 * result, so a run that reaches the result another way (a terminal, mental arithmetic) fails:
 * `expectCalculatorShows` (galculator), `expectEditorSaved` (mousepad, a file it has open),
 * `expectWrittenBy` (the app that last wrote a file, from GTK's recent-files list: gnumeric, or
 * mousepad for a file it created) and `expectNoShellCommand` (pcmanfm, which keeps no record of
 * what it moved: the terminal it can open does, once setup has `KEEP_SHELL_HISTORY`).
 */
import type { SolutionContext, TaskContext } from 'agentest'

type Desktop = SolutionContext['desktop']
type Expect = TaskContext['expect']
type Shell = TaskContext['shell']

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
 * For setup_cmd: makes every interactive shell append each command to ~/.bash_history as soon
 * as it runs (bash otherwise writes it when the shell exits), so a check sees what was typed in
 * a terminal that is still open. Tasks done in the file manager need it: pcmanfm opens a
 * terminal on F4.
 */
export const KEEP_SHELL_HISTORY = `echo "PROMPT_COMMAND='history -a'" >> ~/.bashrc`

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

/**
 * The "shortcut" near miss of a task whose goal names an app: the end state reached from a
 * terminal instead. With `open: 'f4'` the terminal is pcmanfm's own (Tools > Open Current Folder
 * in Terminal, F4), as an agent in the file manager could open it; the other apps offer none, so
 * one is started as an agent that finds any way to a shell would. The commands are typed in,
 * then `exit` closes the terminal, and the app the goal names is left as it was.
 */
export async function inTerminal(
  context: SolutionContext,
  commands: readonly string[],
  { open = 'launch' }: { open?: 'launch' | 'f4' } = {},
): Promise<void> {
  const { computer, desktop } = context
  const count = async () => Number((await desktop.shell('pgrep -c -x xterm', 10_000)).stdout.toString().trim() || 0)
  const before = await count()
  if (open === 'f4') await computer.keypress(['f4'])
  else await desktop.shell('setsid -f xterm >/dev/null 2>&1 </dev/null', 10_000, 'agent')
  await untilShell(desktop, `[ "$(pgrep -c -x xterm)" -gt ${before} ]`)
  await untilWindow(desktop, /^agent@/)
  for (const command of commands) await computer.type(`${command}\n`)
  await computer.type('exit\n')
  await waitFor(() => 'the terminal to close', async () => (await count()) <= before, 30_000)
}

// ---------------------------------------------------------------------------------------------
// Checks on the apps' own state. Each is one or two recorded checks.

/**
 * Galculator holds the result: the number on its display (what it saves when it quits; the
 * check quits it if the agent left it open), or its paper mode, whose paper is a list no check
 * can read, so being in paper mode is taken as the calculator having been used.
 */
export async function expectCalculatorShows(expect: Expect, shell: Shell, result: number, tolerance = 1e-9): Promise<void> {
  const probe = await shell(
    [
      // galculator maps a second, inert window of its class: activating that one never completes
      // (xdotool's --sync waits ~15 s), so the focused window is taken when it is galculator's.
      'ws=$(xdotool search --onlyvisible --classname "^galculator$" 2>/dev/null); a=$(xdotool getactivewindow 2>/dev/null)',
      'w=$(for x in $ws; do [ "$x" = "$a" ] && echo "$x"; done); [ -n "$w" ] || w=$(echo "$ws" | tail -n 1)',
      'if [ -n "$w" ]; then',
      '  [ "$w" = "$a" ] || xdotool windowactivate --sync "$w" >/dev/null 2>&1; sleep 0.3; xdotool key --clearmodifiers ctrl+q',
      '  for i in $(seq 40); do pgrep -x galculator >/dev/null || break; sleep 0.25; done',
      'fi',
      "grep -E '^(mode|remembered_valuex)=' /home/agent/.config/galculator/galculator.conf 2>/dev/null",
      'exit 0',
    ].join('\n'),
    // As the agent: ~/.config is private (mode 700) once mousepad or pcmanfm made it first.
    { as: 'agent' },
  )
  const setting = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, 'm').exec(probe.stdout)?.[1] ?? null
  const shown = setting('mode') === '2' ? 'paper mode' : setting('remembered_valuex') === null ? 'nothing' : Number(setting('remembered_valuex'))
  expect(shown, `the calculator was used: it shows ${Number(result.toFixed(4))} (or is in paper mode)`).toSatisfy(
    (value: number | string) => value === 'paper mode' || (typeof value === 'number' && Math.abs(value - result) <= tolerance),
  )
}

/**
 * Mousepad saved the file it has open: a window shows it with no unsaved changes, and focusing
 * that window raises no "Externally Modified" question (Mousepad asks it when the file on disk
 * changed behind its back: a file written from a terminal). The editor must still be open.
 */
export async function expectEditorSaved(expect: Expect, shell: Shell, path: string): Promise<void> {
  const shown = path.replace(/^\/home\/agent\//, '~/')
  const probe = await shell(
    [
      "ws=$(xdotool search --onlyvisible --name ' - Mousepad$' 2>/dev/null)",
      'for w in $ws; do echo "window: $(xdotool getwindowname "$w")"; done',
      // Not --sync: the question takes the focus when it comes up, and --sync then waits ~15 s.
      // It comes within 0.05 s of the window's activation (measured with both cores busy), so
      // 1.5 s of the window in front without it is a wide margin.
      'for w in $ws; do',
      '  xdotool windowactivate "$w" >/dev/null 2>&1; quiet=0',
      '  for i in $(seq 65); do',
      "    xdotool search --onlyvisible --name '^Externally Modified$' >/dev/null 2>&1 && { echo 'warning: Externally Modified'; break 2; }",
      '    [ "$(xdotool getactivewindow 2>/dev/null)" = "$w" ] && quiet=$((quiet + 1))',
      '    [ $quiet -ge 15 ] && break',
      '    sleep 0.1',
      '  done',
      'done',
      'exit 0',
    ].join('\n'),
  )
  const lines = (prefix: string) => probe.stdout.split('\n').filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length))
  expect(lines('window: '), `the text editor still has ${shown} open, saved`).toContain(`${shown} - Mousepad`)
  expect(lines('warning: '), `the editor did not find ${shown} changed behind its back`).toEqual([])
}

/** How GTK's recent-files list names the apps the tasks use. */
export const RECENT_APP = { gnumeric: 'Gnumeric Spreadsheet', mousepad: 'Mousepad' } as const

/**
 * The app wrote the file last: GTK apps list a file they save or export in
 * ~/.local/share/recently-used.xbel (opening a file from the command line does not, for
 * gnumeric), so the app's entry for the file must be no older than the file itself (2 s of
 * slack: the save dialog adds its entry just before the app writes). A file written from a
 * terminal has no entry, or one older than the file. `now` is where the file is if it was moved
 * after the save (a move keeps its modification time; the list keeps the old path).
 */
export async function expectWrittenBy(
  expect: Expect,
  shell: Shell,
  path: string,
  app: (typeof RECENT_APP)[keyof typeof RECENT_APP],
  now = path,
): Promise<void> {
  // The list is the agent's (mode 600, which root without capabilities cannot read), and GTK
  // writes it a moment after the save: the probe reads it as the agent, for up to 5 s.
  const probe = await shell(
    [
      "python3 - <<'EOF'",
      'import json, os, time, datetime, xml.etree.ElementTree as ET',
      `path, now, app = ${JSON.stringify(path)}, ${JSON.stringify(now)}, ${JSON.stringify(app)}`,
      "NS = '{http://www.freedesktop.org/standards/desktop-bookmarks}'",
      'def look():',
      "    mtime = os.stat(now).st_mtime if os.path.exists(now) else None",
      '    try:',
      "        root = ET.parse(os.path.expanduser('~/.local/share/recently-used.xbel')).getroot()",
      '    except Exception:',
      '        return mtime, []',
      '    entries = []',
      "    for mark in root.findall('bookmark'):",
      "        if mark.get('href') != 'file://' + path:",
      '            continue',
      "        for a in mark.iter(NS + 'application'):",
      "            at = datetime.datetime.fromisoformat(a.get('modified').replace('Z', '+00:00')).timestamp()",
      "            entries.append({'app': a.get('name'), 'modified': at})",
      '    return mtime, entries',
      'for _ in range(10):',
      '    mtime, entries = look()',
      '    # No file: no save to wait for. A file: its entry may land a moment after it.',
      "    if mtime is None or any(e['app'] == app and e['modified'] >= mtime - 2 for e in entries):",
      '        break',
      '    time.sleep(0.5)',
      "print(json.dumps({'mtime': mtime, 'entries': entries}))",
      'EOF',
    ].join('\n'),
    { as: 'agent' },
  )
  const seen = JSON.parse(probe.stdout || '{"mtime":null,"entries":[]}') as { mtime: number | null; entries: Array<{ app: string; modified: number }> }
  const wroteLast = seen.mtime === null ? [] : seen.entries.filter((e) => e.modified >= seen.mtime! - 2).map((e) => e.app)
  expect(wroteLast, `${app} wrote ${path.replace(/^\/home\/agent\//, '~/')} last`).toContain(app)
}

/**
 * No command typed in a terminal changed files: the shell history (kept as it goes, see
 * KEEP_SHELL_HISTORY) has no line with a command that moves, copies, renames, creates or writes
 * files (find and redirections count: -exec, -delete, >). Looking around with ls, cat or du is allowed.
 */
export async function expectNoShellCommand(expect: Expect, shell: Shell, what: string): Promise<void> {
  const history = await shell('cat ~/.bash_history 2>/dev/null; exit 0', { as: 'agent' })
  const writes = /(^|[\s;&|(`])(mv|cp|mkdir|rename|rsync|install|ln|rm|rmdir|touch|tee|dd|sed|awk|perl|python3?|find|xargs|gio)\b|>/
  expect(history.stdout.split('\n').filter((line) => writes.test(line)), `${what} in the file manager, not by terminal commands`).toEqual([])
}
