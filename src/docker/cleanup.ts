import { hostname } from 'node:os'
import type Docker from 'dockerode'
import { LABEL } from './labels.ts'

/** Removes every container of one run (global teardown, Ctrl-C). Returns their names. */
export async function removeRunContainers(docker: Docker, runId: string, mainPid?: number): Promise<string[]> {
  // Two runs started in the same second (other results folders) share a run id: the pid tells them apart.
  return removeWhere(docker, [`${LABEL.run}=${runId}`, ...(mainPid ? [`${LABEL.pid}=${mainPid}`] : [])], () => true)
}

/**
 * Removes containers left by runs whose main process is gone (killed, crashed) on this host, so
 * an interrupted run never leaves its sandboxes running for the next one.
 */
export async function removeDeadRunContainers(docker: Docker): Promise<string[]> {
  const here = hostname()
  return removeWhere(docker, [`${LABEL.managed}=true`], (labels) => {
    if (labels[LABEL.host] !== here) return false
    return !isAlive(Number(labels[LABEL.pid]))
  })
}

async function removeWhere(
  docker: Docker,
  label: string[],
  select: (labels: Record<string, string>) => boolean,
): Promise<string[]> {
  const containers = await docker.listContainers({ all: true, filters: { label } })
  // Containers kept for debugging (keep_on_failure) are the user's to remove.
  const doomed = containers.filter((c) => select(c.Labels) && !c.Names.some((n) => n.startsWith('/agentest-kept-')))
  await Promise.all(doomed.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)))
  return doomed.map((c) => c.Names[0]?.replace(/^\//, '') ?? c.Id.slice(0, 12))
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
