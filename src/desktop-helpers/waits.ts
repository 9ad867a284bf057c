/**
 * Waiting in a reference solution: the helpers only look at the container (which window has the
 * focus, whether a shell test passes) so a solution waits for a dialog to open or a save to land
 * instead of sleeping a fixed time. They never act: acting is the Computer's.
 */
import type { SolutionContext } from '../task/spec.ts'

/** The task's container, as a solution sees it (`context.desktop`). */
export type Desktop = SolutionContext['desktop']

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The title of the focused window, or null when no window has the focus. */
export async function activeTitle(desktop: Desktop): Promise<string | null> {
  const probe = await desktop.shell('xdotool getactivewindow getwindowname', 10_000)
  return probe.exitCode === 0 ? probe.stdout.toString().replace(/\n$/, '') : null
}

async function waitFor(what: () => string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`)
    await sleep(200)
  }
}

/**
 * Waits until the focused window's title matches `title` (a dialog opened, an app came to the
 * front), then 300 ms more: a window that just got the focus may not read keys for a moment.
 * Throws after `timeoutMs`, naming the title last seen.
 */
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
  await sleep(300)
}

/**
 * Waits until a shell test succeeds in the container (a file was saved, a folder exists). It
 * runs as the agent, so `~` is the agent's home (a check's `shell` runs as root).
 * A minute by default: under a full test run an xterm once took more than 30 s to appear.
 */
export async function untilShell(desktop: Desktop, test: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(() => `\`${test}\``, async () => (await desktop.shell(test, 10_000, 'agent')).exitCode === 0, timeoutMs)
}

/** Waits until a drop-down menu is open (a menu of the menu bar opened from the keyboard, say). */
export async function untilMenuOpen(desktop: Desktop, timeoutMs = 30_000): Promise<void> {
  const probe = [
    'for w in $(xdotool search --onlyvisible --classname . 2>/dev/null); do',
    '  xprop -id $w _NET_WM_WINDOW_TYPE 2>/dev/null | grep -q _NET_WM_WINDOW_TYPE_POPUP_MENU && exit 0',
    'done; exit 1',
  ].join('\n')
  await untilShell(desktop, probe, timeoutMs)
}

/**
 * Does `act`, then waits for `done` (told how long to wait). On a busy machine an app now and
 * then misses keys that came while it was still busy (a quick Alt+Tab, a folder view still
 * loading, a dialog just drawn), and the step never completes. Then `act` is done again (up to
 * `tries` times), but only while the focused window is the one the step started in: once the
 * focus has moved, the step is waited for, never done twice.
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

/** The container file's text, or null when it does not exist (or cannot be read). */
export async function readText(desktop: Desktop, path: string): Promise<string | null> {
  return desktop.readFile(path).then(
    (content) => content.toString('utf8'),
    () => null,
  )
}
