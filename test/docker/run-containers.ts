import { LABEL } from '../../src/docker/labels.ts'
import { docker } from './docker-available.ts'

/**
 * The containers of one benchmark run still on the engine, whatever their state. A run is its id
 * and its main process: two runs started in the same second (a gate's beside a test's) share a
 * bare timestamp id, and one's containers must not count as the other's leftovers.
 */
export async function runContainers(runId: string | undefined, pid: number | undefined): Promise<string[]> {
  if (!runId || !pid) throw new Error(`a run is named by its id and main pid (got ${runId} and ${pid})`)
  const found = await docker.listContainers({ all: true, filters: { label: [`${LABEL.run}=${runId}`, `${LABEL.pid}=${pid}`] } })
  return found.map((c) => c.Names.join(','))
}
