import { join } from 'node:path'
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import type { TestCaseRun } from '../src/schema/run.ts'
import type { StopSignal } from '../plugin/interrupt.ts'
import { orphanKind, orphanRecords, stopCause } from '../src/task/orphans.ts'
import type { ResolvedRun } from '../src/schema/config.ts'
import { recordKey } from '../src/schema/task.ts'
import { toTestCaseRun } from './to-testcase-run.ts'
import { writeJsonAtomic } from '../src/files/atomic.ts'

/** Writes `runs/<run-id>/<task-id>.json` for every task that ran, validated by the schema. */
export default class TestCaseJsonReporter implements Reporter {
  private readonly writes: Promise<void>[] = []
  private readonly reported = new Set<string>()

  /** `interrupt`: the run's signal handler; a run it stopped may leave tasks that never reported back. */
  constructor(
    private readonly run: ResolvedRun,
    private readonly interrupt: { readonly signal: StopSignal | null } = { signal: null },
  ) {}

  onTestCaseResult(test: TestCase): void {
    const record = toTestCaseRun(test, this.run)
    if (!record) return
    this.reported.add(test.id)
    this.write(record)
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>): Promise<void> {
    // A task whose worker died (or that the stop cut off) still gets its record, from the disk.
    const cause = stopCause(this.interrupt.signal, errors)
    if (cause) for (const record of orphanRecords(modules, this.reported, this.run, orphanKind(cause))) this.write(record)
    await Promise.all(this.writes)
  }

  private write(record: TestCaseRun): void {
    this.writes.push(writeJsonAtomic(join(this.run.results_path, `${recordKey(record)}.json`), record))
  }
}
