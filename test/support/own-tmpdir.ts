/**
 * Global setup of the framework's projects: what the tests leave in the temp folder (child runs'
 * results, configs, Chromium profiles) goes under one folder of this run's, removed when the run
 * ends. Without it the system's temp folder kept every run's leftovers (1.4 GB on one machine).
 * Workers and child processes inherit TMPDIR, which os.tmpdir() reads on every call.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const MARK = 'AGENTEST_TESTS_TMPDIR'

export default function setup(): () => void {
  // Both framework projects run this in the same main process; the first makes the folder.
  if (!process.env[MARK]) {
    const folder = mkdtempSync(join(tmpdir(), 'agentest-tests-'))
    process.env[MARK] = folder
    process.env.TMPDIR = folder
  }
  const folder = process.env[MARK]!
  return () => rmSync(folder, { recursive: true, force: true })
}
