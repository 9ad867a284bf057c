import { join } from 'node:path'
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import type { ResolvedRun } from '../src/schema/config.ts'
import { recordKey } from '../src/schema/task.ts'
import { toTestCaseRun } from './to-testcase-run.ts'
import { writeJsonAtomic } from '../src/files/atomic.ts'

/** Writes `runs/<run-id>/<task-id>.json` for every task that ran, validated by the schema. */
export default class TestCaseJsonReporter implements Reporter {
  private readonly writes: Promise<void>[] = []

  constructor(private readonly run: ResolvedRun) {}

  onTestCaseResult(test: TestCase): void {
    const record = toTestCaseRun(test, this.run)
    if (!record) return
    this.writes.push(writeJsonAtomic(join(this.run.results_path, `${recordKey(record)}.json`), record))
  }

  async onTestRunEnd(_modules: ReadonlyArray<TestModule>): Promise<void> {
    await Promise.all(this.writes)
  }
}
