import { hostname } from 'node:os'
import type Docker from 'dockerode'
import { LABEL } from './labels.ts'
import { removeNetworksWhere, sweepFirewall } from './agent-network.ts'

/**
 * Removes every container of one run (global teardown, Ctrl-C), then the run's network and its
 * firewall (src/docker/agent-network.ts). Returns the containers' names.
 */
export async function removeRunContainers(docker: Docker, runId: string, mainPid?: number): Promise<string[]> {
  // Two runs started in the same second (other results folders) share a run id: the pid tells them apart.
  const label = [`${LABEL.run}=${runId}`, ...(mainPid ? [`${LABEL.pid}=${mainPid}`] : [])]
  const removed = await removeWhere(docker, label, () => true)
  await removeNetworksWhere(docker, label, () => true).catch(() => undefined)
  return removed
}

/**
 * Removes containers left by runs whose main process is gone (killed, crashed) on this host, so
 * an interrupted run never leaves its sandboxes running for the next one.
 */
export async function removeDeadRunContainers(docker: Docker): Promise<string[]> {
  const here = hostname()
  const dead = (labels: Record<string, string>) => labels[LABEL.host] === here && !isAlive(Number(labels[LABEL.pid]))
  const removed = await removeWhere(docker, [`${LABEL.managed}=true`], dead)
  // Their networks too; and firewall chains left by a reaper, which removes networks only.
  await removeNetworksWhere(docker, [`${LABEL.managed}=true`], dead).catch(() => undefined)
  await sweepFirewall()
  return removed
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

/** Whether a process of this machine runs with that pid (one of another user's included). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
