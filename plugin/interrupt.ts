import type { Vitest } from 'vitest/node'

export type StopSignal = 'SIGINT' | 'SIGTERM'

/** The reason Vitest is given when agentest cancels a run on a signal (reporters see `interrupted`). */
export const INTERRUPT_REASON = 'agentest-interrupt'

/**
 * Ctrl-C (SIGINT) and SIGTERM, handled in the run's main process so that an interrupted run
 * still leaves a complete record. Vitest's own handler exits at once, before any reporter
 * runs; this one asks Vitest to cancel the run instead: every task in flight sees its test's
 * signal abort, ends as `aborted` and writes its record, tasks not started are skipped, and
 * the summary and report are written for what finished. A second signal exits at once (the
 * container reaper still removes what the run started).
 */
export class RunInterrupt {
  /** The first signal received, or null while the run goes on. */
  signal: StopSignal | null = null
  private vitest: Vitest | null = null
  private installed = false

  install(vitest: Vitest): void {
    this.vitest = vitest
    if (this.installed) return
    this.installed = true
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      // Vitest's logger exits on the first signal; its listener is kept for the second one.
      const theirs = process.listeners(name)
      for (const listener of theirs) process.off(name, listener)
      process.on(name, () => this.received(name, theirs))
    }
    vitest.onClose(() => this.uninstall())
  }

  private uninstall(): void {
    for (const name of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(name)
    this.installed = false
  }

  private received(name: StopSignal, theirs: ReadonlyArray<(...args: never[]) => void>): void {
    const say = (line: string) => process.stderr.write(`\nagentest: ${line}\n`)
    if (this.signal) {
      say(`${label(name)} again: exiting now; the tasks in flight get no record (their containers are removed by the reaper)`)
      process.exitCode = 130
      for (const listener of theirs) (listener as (signal: string) => void)(name)
      setTimeout(() => process.exit(130), 50).unref()
      return
    }
    this.signal = name
    say(`${label(name)}: stopping. Tasks in flight end as aborted and are recorded; no new task starts. ${label(name) === 'Ctrl-C' ? 'Press Ctrl-C again' : 'Send it again'} to exit at once.`)
    process.exitCode = 130
    void this.vitest?.cancelCurrentRun(INTERRUPT_REASON as never)
  }
}

function label(name: StopSignal): string {
  return name === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'
}
