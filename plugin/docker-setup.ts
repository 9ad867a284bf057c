import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ResolvedRun } from '../src/schema/config.ts'
import { ensureAgentImage } from '../src/agent-images/build.ts'
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
  /**
   * Starts the run's reaper, once: called before the run's first container is created, so a run
   * that creates none (browser tasks only) does not pay for one.
   */
  watchContainers(): void
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
    return { provision: { available: false, reason: status.reason }, watchContainers: () => {}, teardown: async () => {} }
  }
  const reaped = await removeDeadRunContainers(docker)
  if (reaped.length) log(`removed ${reaped.length} container(s) left by dead runs: ${reaped.join(', ')}`)
  const images: Record<string, string> = {}
  try {
    for (const name of SANDBOX_IMAGE_NAMES) images[name] = await ensureImage(docker, name, imageDir(run.root, name), log)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    log(reason)
    return { provision: { available: false, reason }, watchContainers: () => {}, teardown: async () => {} }
  }
  let agentImage: string | undefined
  if (run.agent_image) agentImage = await prepareAgentImage(docker, run.agent_image, run.config.agent_images.allow_secrets, images, log)
  let watching = false
  return {
    provision: { available: true, images, ...(agentImage ? { agentImage } : {}) },
    watchContainers: () => {
      if (watching) return
      watching = true
      // Vitest exits at once on Ctrl-C, and a run can be killed outright: a detached reaper outlives
      // it and removes the run's containers, including ones workers were still creating.
      spawn(process.execPath, [REAPER, run.run_id, String(process.pid)], { detached: true, stdio: 'ignore', env: process.env }).unref()
    },
    teardown: async () => {
      await removeRunContainers(docker, run.run_id, process.pid).catch(() => undefined)
    },
  }
}

/**
 * Builds the packaged agent's image on its base once for the run. A spec whose base is not a
 * sandbox image, a secret the config does not allow (the loader has refused it already), a
 * missing secret or a failed build stops the run with one line: every desktop task would fail
 * the same way.
 */
async function prepareAgentImage(
  docker: ReturnType<typeof dockerClient>,
  agentImage: NonNullable<ResolvedRun['agent_image']>,
  allowSecrets: readonly string[],
  images: Record<string, string>,
  log: (line: string) => void,
): Promise<string> {
  const stop = (message: string): never => {
    process.stderr.write(`agentest: ${message}\n`)
    process.exit(1)
  }
  const { spec } = agentImage.spec
  // A served agent may name no base; one that names a base is built on it, as any other.
  const baseTag = spec.base ? images[spec.base] : null
  if (spec.base && !baseTag) stop(`${agentImage.shown}: spec.base: ${spec.base} is not a sandbox image (known: ${Object.keys(images).join(', ')})`)
  const refused = spec.secrets.findIndex((name) => !allowSecrets.includes(name))
  if (refused >= 0) stop(`${agentImage.shown}: spec.secrets[${refused}]: ${spec.secrets[refused]} is not allowed by agent_images.allow_secrets`)
  const missing = spec.secrets.filter((name) => process.env[name] === undefined)
  if (missing.length) stop(`${agentImage.shown}: spec.secrets: ${missing.join(', ')} not set in the environment`)
  try {
    return await ensureAgentImage(docker, agentImage, baseTag ?? null, log)
  } catch (error) {
    return stop(error instanceof Error ? error.message : String(error))
  }
}
