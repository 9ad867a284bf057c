import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ResolvedRun } from '../src/schema/config.ts'
import {
  dockerClient,
  dockerStatus,
  ensureImage,
  imageDir,
  removeDeadRunContainers,
  removeRunContainers,
  SANDBOX_IMAGE_NAMES,
  type DockerProvision,
} from '../src/docker/index.ts'

const REAPER = fileURLToPath(new URL('./container-reaper.mjs', import.meta.url))

export interface PreparedDocker {
  provision: DockerProvision
  /** Removes every container of this run. */
  teardown(): Promise<void>
}

/**
 * Checks the engine, removes leftovers of dead runs and builds missing sandbox images. Without
 * an engine, desktop tasks are skipped with the reason; browser tasks run regardless.
 */
export async function prepareDocker(run: ResolvedRun, log: (line: string) => void): Promise<PreparedDocker> {
  const docker = dockerClient()
  const status = await dockerStatus(docker)
  if (!status.available) {
    return { provision: { available: false, reason: status.reason }, teardown: async () => {} }
  }
  const reaped = await removeDeadRunContainers(docker)
  if (reaped.length) log(`removed ${reaped.length} container(s) left by dead runs: ${reaped.join(', ')}`)
  const images: Record<string, string> = {}
  try {
    for (const name of SANDBOX_IMAGE_NAMES) images[name] = await ensureImage(docker, name, imageDir(run.root, name), log)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    log(reason)
    return { provision: { available: false, reason }, teardown: async () => {} }
  }
  // Vitest exits at once on Ctrl-C, and a run can be killed outright: a detached reaper outlives
  // it and removes the run's containers, including ones workers were still creating.
  spawn(process.execPath, [REAPER, run.run_id, String(process.pid)], { detached: true, stdio: 'ignore', env: process.env }).unref()
  return {
    provision: { available: true, images },
    teardown: async () => {
      await removeRunContainers(docker, run.run_id).catch(() => undefined)
    },
  }
}
