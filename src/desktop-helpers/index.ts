/**
 * Desktop helpers: what a desktop task (`desktop_image:`) uses besides `agentTest`. Setup lines
 * that start an app and wait for its window (`launch`, `launchApp`); waits and moves for
 * reference solutions (`untilWindow`, `saveAs`, ...); the shortcut near miss every task with a
 * `tool` declares (`inTerminal`); and checks on how the work was done, read from the observer's
 * record (`expectWrittenBy`, `expectEditorSaved`, `expectCalculatorShows`, ...). Documented,
 * each with its contract, in docs/desktop.md.
 */
export { launch, launchApp, type BundledApp } from './launch.ts'
export { activeTitle, readText, retrying, untilMenuOpen, untilShell, untilWindow, type Desktop } from './waits.ts'
export { altTabTo, gnumericExportCsv, gnumericRepeatExport, paperMode, saveAs, scientificMode, takeInto, type StepContext } from './steps.ts'
export { parseCsv } from './csv.ts'
export { inTerminal, tricked, type Forgery, type InTerminalOptions, type ShortcutContext } from './shortcut.ts'
export { TOOLS, type Tool } from './tools.ts'
export type { DesktopCheckContext, ObservedRecord } from './evidence.ts'
export { expectWrittenBy, type WrittenByOptions } from './written-by.ts'
export { expectChangedOnlyBy, type ChangedOnlyByOptions } from './changed-only-by.ts'
export { expectEditorSaved } from './editor-saved.ts'
export { expectCalculatorShows, type CalculatorOptions } from './calculator-shows.ts'
export { expectNoShellCommand } from './no-shell-command.ts'
