import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestCase as VitestTestCase, TestModule } from 'vitest/node'
import type { ResolvedRun } from '../schema/config.ts'
import { Step, type TestCaseRun } from '../schema/run.ts'
import { recordKey } from '../schema/task.ts'
import { agentStatusOf, taskRecord, testCaseRun } from '../record/index.ts'
import { STEP_JOURNAL } from '../trajectory/recorder.ts'
import type { AgentestMeta } from './meta.ts'
import type { FaultKind } from '../faults/kinds.ts'
import './meta.ts'

/** Why a run stopped before its end, if it did: a signal, or a worker's death (Vitest then ends the run). */
export type StopCause = 'SIGINT' | 'SIGTERM' | 'worker_died'

export function stopCause(signal: 'SIGINT' | 'SIGTERM' | null, errors: ReadonlyArray<{ message?: string; cause?: unknown }>): StopCause | null {
  return signal ?? (workerDied(errors) ? 'worker_died' : null)
}

/** The kind a task cut off by that stop is recorded under. */
export function orphanKind(cause: StopCause): FaultKind {
  return cause === 'worker_died' ? 'worker_killed' : 'aborted'
}

/** Vitest's words when a fork dies under its tests (kill -9, a crash, the kernel's OOM killer). */
export function workerDied(errors: ReadonlyArray<{ message?: string; cause?: unknown }>): boolean {
  return errors.some((e) => /Worker exited unexpectedly|Worker forks emitted error|Worker threads emitted error/.test(`${e.message ?? ''} ${String((e.cause as { message?: string } | undefined)?.message ?? '')}`))
}

/**
 * Tasks that began but never reported back, because the process running them is gone (a
 * killed worker): each gets a record from what reached the disk, its steps (the recorder's
 * journal) and screenshots, under the fault's kind. A task that never began has no folder and
 * gets no record: it is counted as not started.
 */
export function orphanRecords(modules: ReadonlyArray<TestModule>, reported: ReadonlySet<string>, run: ResolvedRun, kind: FaultKind): TestCaseRun[] {
  const orphans: TestCaseRun[] = []
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      if (reported.has(test.id) || test.result().state !== 'pending') continue
      const meta: AgentestMeta | undefined = test.meta().agentest
      if (!meta) continue
      const folder = join(run.results_path, recordKey(meta.task))
      if (!existsSync(folder)) continue
      orphans.push(orphanRecord(test, meta, run, readJournal(folder), kind))
    }
  }
  return orphans
}

function orphanRecord(test: VitestTestCase, meta: AgentestMeta, run: ResolvedRun, steps: Step[], kind: FaultKind): TestCaseRun {
  const now = new Date().toISOString()
  const started = steps[0] ? new Date(steps[0].timestamp).toISOString() : now
  const message =
    kind === 'worker_killed'
      ? `the Vitest worker running this task died (killed or crashed) after ${steps.length} step(s); the steps that reached the disk are kept`
      : `the run ended before this task reported back, after ${steps.length} step(s)`
  const error = { kind, message }
  const agentStatus = agentStatusOf(error, 'run')
  const record = taskRecord(run, meta.task, { agent_status: agentStatus, error, trajectory: steps, started_at: started, finished_at: now })
  return testCaseRun(meta.task, record, { test_name: test.fullName, file: test.module.relativeModuleId, status: agentStatus === 'aborted' ? 'aborted' : 'error', error })
}

/** The steps a recorder wrote, one JSON line each; a line cut off by the process's death is dropped. */
function readJournal(folder: string): Step[] {
  const file = join(folder, STEP_JOURNAL)
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const parsed = line.trim() ? Step.safeParse(safeJson(line)) : null
      return parsed?.success ? [parsed.data] : []
    })
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line)
  } catch {
    return null
  }
}
