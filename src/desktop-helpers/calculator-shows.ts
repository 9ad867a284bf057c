import { z } from 'zod'
import type { Observation } from '../observer/index.ts'
import { observe, toolWindows, type DesktopCheckContext } from './evidence.ts'
import { report } from './finding.ts'
import { describeActor, isTool } from './tools.ts'

const FOLDER = '/home/agent/.config/galculator'
const SETTINGS = `${FOLDER}/galculator.conf`

/** The two settings the check reads, as `grep` prints them from galculator.conf. */
const SavedDisplay = z.object({
  /** galculator's mode: 2 is paper mode, whose paper no check can read. */
  mode: z.string().nullable(),
  /** The number on its display when it quit. */
  remembered_valuex: z.string().nullable(),
})

function readSettings(text: string): z.infer<typeof SavedDisplay> {
  const setting = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, 'm').exec(text)?.[1] ?? null
  return SavedDisplay.parse({ mode: setting('mode'), remembered_valuex: setting('remembered_valuex') })
}

/** Options of `expectCalculatorShows`. */
export interface CalculatorOptions {
  /** How far the display may be from `result` (default 1e-9; 0.01 for a result in cents). */
  tolerance?: number
}

/** What the display showed, or why it could not be read; `closed` says whether this check closed the calculator. */
type Shown = { value: number | 'paper mode' | 'nothing'; closed: Closed } | { reason: string }

/** Who closed the calculator: this check, or someone before it (the agent, most likely). */
type Closed = 'by the check' | 'before the check'

/**
 * Quits the calculator the task started when it is still open, so that it saves its display: the
 * focused of its windows, else the last (galculator maps a second, inert one), gets Ctrl+Q. Its
 * settings folder is made first if the setup did not make it (it saves only into one that exists).
 */
async function closeCalculator({ shell }: DesktopCheckContext, ids: readonly number[]): Promise<void> {
  await shell(`[ -d ${FOLDER} ] || mkdir -p ${FOLDER}`, { as: 'agent' })
  await shell(
    [
      `a=$(xdotool getactivewindow 2>/dev/null); w=${ids.at(-1)}; for x in ${ids.join(' ')}; do [ "$x" = "$a" ] && w=$x; done`,
      '[ "$w" = "$a" ] || xdotool windowactivate --sync "$w" >/dev/null 2>&1; sleep 0.3; xdotool key --clearmodifiers ctrl+q',
      'for i in $(seq 40); do pgrep -x galculator >/dev/null || break; sleep 0.25; done',
      'exit 0',
    ].join('\n'),
  )
}

/** The display as the calculator the task started saved it during the turn or the checks. */
async function savedDisplay(context: DesktopCheckContext, observation: Observation, closed: Closed): Promise<Shown> {
  const writer = observation.contentWriter(SETTINGS)
  if (observation.changedUnseen(SETTINGS) === true) return { reason: 'its settings were changed by a process the observer did not see' }
  if (writer && isTool(writer.by, 'galculator') && writer.at >= observation.turnStart) {
    // As the agent: ~/.config is private (mode 700). The agent's processes are stopped by now.
    const saved = await context.shell(`grep -E '^(mode|remembered_valuex)=' ${SETTINGS}; exit 0`, { as: 'agent' })
    const settings = readSettings(saved.stdout)
    if (settings.mode === '2') return { value: 'paper mode', closed }
    const value = settings.remembered_valuex === null ? Number.NaN : Number(settings.remembered_valuex)
    return Number.isFinite(value) ? { value, closed } : { value: 'nothing', closed }
  }
  if (closed === 'before the check') {
    const folder = await context.shell(`test -d ${FOLDER}`, { as: 'agent' })
    if (folder.exitCode !== 0) {
      return {
        reason: `galculator was closed while ~/.config/galculator did not exist, so it saved nothing (launch it with launchApp('galculator') or launch('galculator', ...) in setup_cmd, which make that folder)`,
      }
    }
  }
  return { reason: `the calculator the task started did not save its display (its settings were last written by ${writer ? describeActor(writer.by) : 'no process the observer saw'})` }
}

/** What the calculator shows, closing it first if it is open. */
async function readDisplay(context: DesktopCheckContext): Promise<Shown> {
  const before = await observe(context.observed)
  if (typeof before === 'string') return { reason: before }
  const windows = await toolWindows(context.observed, before, 'galculator')
  if (typeof windows === 'string') return { reason: windows }
  if (windows.length > 0) await closeCalculator(context, windows.map((w) => w.id))
  const after = await observe(context.observed, [SETTINGS])
  if (typeof after === 'string') return { reason: after }
  return savedDisplay(context, after, windows.length > 0 ? 'by the check' : 'before the check')
}

const show = (n: number) => String(Number(n.toFixed(6)))

/**
 * galculator, the calculator the task started, shows `result` (within `tolerance`), or is in
 * paper mode (whose paper no check can read; taken as the calculator having been used). Read
 * from the settings it saves as it quits: the agent quit it, or it is still open and the check
 * quits it. Settings written by anything else, or before the agent's turn, are not read.
 * Needs galculator started in `setup_cmd` (`launchApp('galculator')`); if its settings folder
 * is missing and it is still open, the check makes the folder before quitting it.
 */
export async function expectCalculatorShows(context: DesktopCheckContext, result: number, { tolerance = 1e-9 }: CalculatorOptions = {}): Promise<void> {
  const { expect } = context
  const shown = await readDisplay(context)
  const wanted = `${show(result)}${tolerance >= 1e-6 ? ` (within ${tolerance})` : ''}`
  const label = `the calculator was used: it shows ${Number(result.toFixed(4))} (or is in paper mode)`
  if ('reason' in shown) {
    report(expect, label, { pass: false, message: `the calculator's display could not be read: ${shown.reason}; expected it to show ${wanted}`, found: shown.reason, expected: show(result) })
    return
  }
  const { value, closed } = shown
  const pass = value === 'paper mode' || (typeof value === 'number' && Math.abs(value - result) <= tolerance)
  report(expect, label, {
    pass,
    message: `the calculator's display (read from galculator's settings, ~/.config/galculator/galculator.conf, saved as it was closed ${closed}) shows ${typeof value === 'number' ? show(value) : value}, expected ${wanted} or paper mode`,
    found: value,
    expected: result,
  })
}
