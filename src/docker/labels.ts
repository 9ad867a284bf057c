import { hostname } from 'node:os'

/** Every container agentest starts carries these, so leftovers can always be found and removed. */
export const LABEL = {
  managed: 'dev.agentest.managed',
  run: 'dev.agentest.run',
  task: 'dev.agentest.task',
  /** The pid and host of the run's main process: a leftover whose process is gone is a dead run's. */
  pid: 'dev.agentest.pid',
  host: 'dev.agentest.host',
} as const

export function containerLabels(runId: string, taskId: string): Record<string, string> {
  return {
    [LABEL.managed]: 'true',
    [LABEL.run]: runId,
    [LABEL.task]: taskId,
    [LABEL.pid]: String(mainPid()),
    [LABEL.host]: hostname(),
  }
}

/** A run's network carries the container labels but a task's, so cleanup finds it as it finds containers. */
export function networkLabels(runId: string): Record<string, string> {
  const { [LABEL.task]: _task, ...labels } = containerLabels(runId, '')
  return labels
}

/** Workers are children of the run's main process; the main process is the run's owner. */
function mainPid(): number {
  return Number(process.env.AGENTEST_MAIN_PID ?? process.pid)
}
