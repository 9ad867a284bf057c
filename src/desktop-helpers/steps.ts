/**
 * Moves for reference solutions on the bundled apps, keyboard first so they do not depend on
 * pixels, each waiting for its effect (see waits.ts) rather than a fixed time.
 */
import type { SolutionContext } from '../task/spec.ts'
import { retrying, untilMenuOpen, untilShell, untilWindow } from './waits.ts'

/** What a solution step needs of its context: the Computer to act, the container to look. */
export type StepContext = Pick<SolutionContext, 'computer' | 'desktop'>

/** Alt+Tab to the window titled `title` (the one used before the focused one), retried if the keys are lost. */
export async function altTabTo({ computer, desktop }: StepContext, title: RegExp): Promise<void> {
  await retrying(
    desktop,
    () => computer.keypress(['alt', 'tab']),
    (timeoutMs) => untilWindow(desktop, title, timeoutMs),
  )
}

/**
 * In a save dialog that has the focus: types the full `path` over its name field, presses
 * Enter, and waits until the file exists and is not empty. A dialog just drawn can lose the
 * keys; then they are typed again while it is still open.
 */
export async function saveAs({ computer, desktop }: StepContext, path: string): Promise<void> {
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
 * it), then opens `folder` the same way and waits for its window, titled `title`. Paste with
 * Ctrl+V after. A folder view still loading misses the typing; then it is all done again (after
 * Escape closes the search box) while the window has not changed.
 */
export async function takeInto({ computer, desktop }: StepContext, item: string, folder: string, title: RegExp, copy = false): Promise<void> {
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

/**
 * Gnumeric: Data > Export Data > Repeat Export (Ctrl+E) writes the sheet back to the CSV file it
 * was opened from, after a question (a dialog with no title) answered with Enter.
 */
export async function gnumericRepeatExport({ computer, desktop }: StepContext): Promise<void> {
  await computer.keypress(['ctrl', 'e'])
  await untilShell(desktop, 'w=$(xdotool getactivewindow) && [ -z "$(xdotool getwindowname $w)" ]')
  await computer.keypress(['enter'])
  await untilWindow(desktop, /Gnumeric$/)
}

/**
 * Gnumeric: Data > Export Data > Export as CSV File (Alt+D, Up to the menu's last item, Right,
 * Down, Enter), then the full `path` typed over the whole name field. (Ctrl+S would save
 * Gnumeric's own format; its file-type list cannot be reached from the keyboard.)
 */
export async function gnumericExportCsv(context: StepContext, path: string): Promise<void> {
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

/** Galculator: View > Scientific mode (Alt+V, S), which has powers (`^`) and parentheses. */
export async function scientificMode({ computer, desktop }: StepContext): Promise<void> {
  await computer.keypress(['alt', 'v'])
  await untilMenuOpen(desktop)
  await computer.keypress(['s'])
}

/** Galculator: View > Paper mode (Alt+V, P): a formula typed into a line, worked out by Enter. */
export async function paperMode({ computer, desktop }: StepContext): Promise<void> {
  await computer.keypress(['alt', 'v'])
  await untilMenuOpen(desktop)
  await computer.keypress(['p'])
}
