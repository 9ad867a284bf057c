import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import '../src/task/meta.ts'

/**
 * Mistakes in task files, found as each file is collected: an agentTest() option that failed
 * validation, or two files declaring the same task id (one record would overwrite the other).
 * Either ends the run: what is left is cancelled, and the run ends with those lines only.
 */
export default class LoadCheckReporter implements Reporter {
  private vitest: Vitest | null = null
  private owners = new Map<string, string>()
  private found: string[] = []

  /** The lines this run ended with (empty when every file loaded). */
  get problems(): readonly string[] {
    return this.found
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunStart(): void {
    // Watch mode reruns: each run judges what it collects.
    this.owners = new Map()
    this.found = []
  }

  onTestModuleCollected(module: TestModule): void {
    const before = this.found.length
    for (const error of module.errors()) {
      if (error.name === 'InputError') this.add(error.message)
    }
    const file = relative(this.vitest?.config.root ?? process.cwd(), module.moduleId)
    for (const test of module.children.allTests()) {
      const id = test.meta().agentest?.task.id
      if (!id) continue
      const owner = this.owners.get(id)
      if (owner === undefined) this.owners.set(id, file)
      // Named in path order: which of the two a busy machine collects first must not change the line.
      else if (owner !== file) this.add(`${[owner, file].sort().join(' and ')}: id: both declare the task "${id}"; task ids must be unique (a task's records are named by its id)`)
    }
    // The same reason --bail gives: the files not yet run are cancelled, not failed.
    if (this.found.length > before) void this.vitest?.cancelCurrentRun('test-failure')
  }

  onTestRunEnd(): void {
    if (this.found.length === 0) return
    for (const line of this.found) process.stderr.write(`agentest: ${line}\n`)
    process.exitCode = 1
  }

  private add(message: string): void {
    for (const line of message.split('\n')) if (!this.found.includes(line)) this.found.push(line)
  }
}
