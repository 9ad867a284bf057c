import type { TestAnnotation } from 'vitest'
import type { Reporter, TestCase, Vitest } from 'vitest/node'
import type { ResolvedRun } from '../src/schema/config.ts'
import { recordKey } from '../src/schema/task.ts'
import '../src/task/meta.ts'

interface Running {
  key: string
  step: number
  maxSteps: number
  last: string
  startedAt: number
}

/**
 * Live progress of a long run: every few seconds, one line per task still running with its step
 * out of max_steps and its last action. Steps arrive as the tasks' annotations, so this needs no
 * channel of its own; a run shorter than one interval prints nothing.
 */
export default class ProgressReporter implements Reporter {
  private readonly running = new Map<string, Running>()
  private timer: NodeJS.Timeout | null = null
  private vitest: Vitest | null = null
  private changed = false

  constructor(private readonly run: ResolvedRun) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestCaseReady(test: TestCase): void {
    const task = test.meta().agentest?.task
    if (!task) return
    this.running.set(test.id, {
      key: recordKey(task),
      step: 0,
      maxSteps: this.run.config.max_steps ?? task.max_steps,
      last: 'starting',
      startedAt: Date.now(),
    })
    this.changed = true
    this.timer ??= setInterval(() => this.print(), this.run.config.run.progress_ms).unref()
  }

  onTestCaseAnnotate(test: TestCase, annotation: TestAnnotation): void {
    const task = this.running.get(test.id)
    if (!task) return
    const step = /^step (\d+): (.*?)(?: — [\s\S]*)?$/.exec(annotation.message)
    if (step) {
      task.step = Number(step[1])
      task.last = step[2]!
    } else if (annotation.type === 'check') {
      task.last = 'checking'
    }
    this.changed = true
  }

  onTestCaseResult(test: TestCase): void {
    this.running.delete(test.id)
  }

  onTestRunEnd(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  private print(): void {
    if (!this.changed || this.running.size === 0) return
    this.changed = false
    const now = Date.now()
    const width = Math.max(...[...this.running.values()].map((t) => t.key.length))
    for (const task of this.running.values()) {
      const seconds = Math.round((now - task.startedAt) / 1000)
      const line = `agentest ▸ ${task.key.padEnd(width)}  step ${task.step}/${task.maxSteps}  ${truncate(task.last, 70)}  · ${seconds}s`
      if (this.vitest) this.vitest.logger.log(line)
      else console.log(line)
    }
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
