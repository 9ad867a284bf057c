import type { Reporter, TestModule } from 'vitest/node'
import type { ResolvedRun } from '../src/schema/config.ts'
import { runLimitReached, runSpend } from '../src/limits/index.ts'
import '../src/task/meta.ts'

/** Says, at the end of a run whose budget ran out, what it spent and how many tasks were not run for it. */
export default class RunLimitReporter implements Reporter {
  constructor(private readonly run: ResolvedRun) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const { limits, prices, agent } = this.run.config
    const hit = runLimitReached(limits, prices, agent.model, runSpend(this.run.results_path))
    if (!hit) return
    const notRun = modules.flatMap((m) => [...m.children.allTests()]).filter((t) => t.meta().agentest?.record?.error?.kind === 'run_limit').length
    process.stdout.write(`agentest: ${hit.message}: ${notRun} task${notRun === 1 ? ' was' : 's were'} not run (run_limit)\n`)
  }
}
