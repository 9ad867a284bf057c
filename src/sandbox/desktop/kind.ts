import { observedRecord } from '../../observer/record.ts'
import type { DesktopObserver } from '../../observer/observer.ts'
import { AgentServerClient, type AgentServerProbe } from '../../agent-images/client.ts'
import { actsThroughServedComputer, agentContainerSettings, type PackagedAgentImage } from '../../agent-images/container-settings.ts'
import { redact, redactError } from '../../secrets/redact.ts'
import { errorLine } from '../../faults/kinds.ts'
import { DesktopImageError, desktopImageRef } from '../../docker/task-images.ts'
import { SandboxUnavailable, type SandboxKind, type SandboxRequest, type SandboxServices, type TaskSandbox } from '../kind.ts'
import { DesktopSandbox, type DesktopSandboxOptions } from './desktop-sandbox.ts'
import { DiskWatch } from './disk-watch.ts'
import { WarmPool } from './warm-pool.ts'

/** What a desktop task's body gets of its sandbox. */
export interface DesktopParts {
  /** The task's container. */
  desktop: DesktopSandbox
  /**
   * What the agent's processes did in the container during its turn, recorded as root by the
   * observer: who wrote a file, which programs ran, what changed. Checks about how the work was
   * done read this, never files the agent could write.
   */
  observed: DesktopObserver
}

/** A Docker container with an X desktop (`desktop_image:` in the task), one per task. */
export const desktopKind: SandboxKind<DesktopParts> = {
  name: 'desktop',
  environment: 'linux',
  claims: (fields) => fields.desktop_image !== undefined,
  open: openDesktop,
  probes: ({ services }) => ({ engine: async () => (await services.docker().ping(), true) }),
  // The id of a task's own image: a rebuilt image is another task.
  cacheKey: async ({ fields, taskFile, services }) => (await services.taskImage(fields.desktop_image!, taskFile).catch(() => null))?.id ?? null,
  // Docker is prepared (it may build the bundled images) and a task's own image built or pulled
  // before the file's tasks start their timers; a failure is left for each task to record.
  prepare(fields, taskFile) {
    const image = fields.desktop_image
    if (!image) return null
    return async (services) => {
      await services.dockerProvision()
      if (desktopImageRef(image, taskFile).kind !== 'bundled') await services.taskImage(image, taskFile).catch(() => undefined)
    }
  },
  recordedParts: () => ({}),
}

async function openDesktop({ taskId, taskFile, fields, services }: SandboxRequest): Promise<TaskSandbox<DesktopParts>> {
  const docker = await services.dockerProvision()
  if (!docker.available) throw new SandboxUnavailable(docker.reason)
  await services.watchContainers()
  const image = fields.desktop_image!
  // An image that cannot be had, or lacks what the harness needs, skips the task with the reason.
  const own = await services.taskImage(image, taskFile).catch((error: unknown) => {
    throw error instanceof DesktopImageError ? new SandboxUnavailable(error.message) : error
  })
  const tag = own?.tag ?? docker.images[image]
  if (!tag) throw new SandboxUnavailable(`the ${image} image was not built`)
  const { config, run_id, agent_image: agentImage } = services.run
  // An agent that acts through the served Computer has a container of its own (src/task/served-agent.ts).
  const packaged = agentImage && !actsThroughServedComputer(agentImage) ? packagedAgent(agentImage, config.agent_images.allow_secrets, image, docker.agentImage, taskId) : null
  // The disk limit is the harness's, whatever a packaged agent's spec asks for.
  const diskMb = config.docker.disk_mb
  const pool = packaged ? null : warmPool(services)
  const open = (options: DesktopSandboxOptions) => (pool ? pool.open(options) : DesktopSandbox.open(options))
  const desktop = await open({
    docker: services.docker(),
    image: packaged?.tag ?? tag,
    runId: run_id,
    taskId,
    setupCmd: fields.setup_cmd ?? null,
    network: fields.network,
    limits: { ...(packaged?.limits ?? { memoryMb: config.docker.memory_mb, cpus: config.docker.cpus, pids: config.docker.pids }), diskMb },
    agentServer: packaged?.server,
  })
  // Past its disk limit the container is killed, and the task ends as disk_limit (gone() below).
  const disk = new DiskWatch(desktop.container, desktop.name, diskMb).start()
  let agentServer: AgentServerClient | null = null
  if (packaged) {
    try {
      agentServer = new AgentServerClient(`http://127.0.0.1:${await desktop.publishedPort(packaged.server.port)}`, await desktop.gateway(), agentServerProbe(desktop, packaged.server.port, services))
      await agentServer.waitHealthy(packaged.health.path, packaged.health.timeout_ms)
    } catch (error) {
      disk.stop()
      await desktop.close()
      // The container's log lines quoted in the message may echo its secrets.
      throw redactError(error, services.secrets())
    }
  }
  return {
    computer: desktop.computer,
    parts: { desktop, observed: desktop.observer },
    solutionParts: () => ({ desktop }),
    agentServer,
    violations: () => [],
    gone: async () => (await disk.check()) ?? (await desktop.whyGone()),
    shell: (command, timeoutMs, as) => desktop.shell(command, timeoutMs, as),
    // What the agent's processes do is recorded from here on, as root; an observer that cannot
    // start leaves the checks that need it failing with why.
    turnStarts: () => desktop.observer.start(),
    // A packaged agent that was cancelled (its timeout, Ctrl-C) has its few seconds to stop by
    // itself, and whether it did is judged, before its processes are stopped.
    turnEnds: async (note) => {
      await agentServer?.cancelOutcome().catch(() => null)
      return endTurn(desktop, note)
    },
    whyFailed: () => desktop.oomKilled(),
    // The observer's record of what the agent's processes ran and changed (none without one).
    async saveEvidence(recorder) {
      const observation = await desktop.observer.observation().catch(() => null)
      return observation ? recorder.saveJson('observed.json', observedRecord(observation, desktop.observer.ended)) : null
    },
    finalUrl: () => null,
    async close(failed) {
      disk.stop()
      // A packaged agent still acting (timeout, Ctrl-C) is told to stop before its container goes.
      await agentServer?.cancelActive()
      if (failed && config.docker.keep_on_failure) {
        const kept = await desktop.keep()
        if (kept) process.stderr.write(`agentest: kept container ${kept} of failed task ${taskId} (docker rm -f ${kept})\n`)
        return
      }
      // Nothing waits for the removal: the record does not need the container gone.
      services.later(() => desktop.close())
    },
  }
}

/**
 * What the harness sees of a packaged agent's server in its container, for the messages of a
 * server that died or cannot be reached: its log lines (scrubbed of the run's secrets: they may
 * echo them), whether the container or the server's process ended, and what listens inside.
 */
function agentServerProbe(desktop: DesktopSandbox, port: number, services: SandboxServices): AgentServerProbe {
  return {
    port,
    logs: async () => redact(await desktop.logs(), services.secrets()),
    gone: async () => (await desktop.whyGone())?.message ?? null,
    server: () => desktop.agentServerState(),
    listening: () => desktop.listening(),
  }
}

/**
 * The agent's turn is over: its processes are killed and the shells setup left are frozen;
 * what was stopped is said in the task's notes.
 */
async function endTurn(desktop: DesktopSandbox, note: (message: string) => Promise<void>): Promise<void> {
  const ended = await desktop.observer.endTurn().catch((error: unknown) => ({ ok: false as const, reason: errorLine(error) }))
  if (!ended) return
  if (!ended.ok) return note(`the agent's processes could not be stopped: ${ended.reason}`)
  const named = (list: Array<{ pid: number; exe: string | null }>) => list.map((p) => `${p.exe ?? '?'} (${p.pid})`).join(', ')
  if (ended.killed.length) await note(`stopped the agent's processes when its turn ended: ${named(ended.killed)}`)
  if (ended.frozen.length) await note(`froze the shells setup started: ${named(ended.frozen)}`)
}

/** The worker's warm pool of desktop containers (docker.warm_pool), or null when it is 0. */
function warmPool(services: SandboxServices): WarmPool | null {
  const { run } = services
  const { warm_pool: size, memory_mb: memoryMb, cpus, pids, disk_mb: diskMb } = run.config.docker
  if (size <= 0) return null
  return services.shared('desktop-pool', () => new WarmPool({ docker: services.docker(), runId: run.run_id, size, limits: { memoryMb, cpus, pids, diskMb } }))
}

/**
 * How an own-desktop packaged agent's container differs from the plain sandbox: its image (built
 * on the task's), its limits, its environment and secrets, and its server's port.
 */
function packagedAgent(agentImage: PackagedAgentImage, allowSecrets: readonly string[], taskImage: string, tag: string | undefined, taskId: string) {
  const { spec } = agentImage.spec
  if (spec.base !== taskImage) {
    throw new Error(`the packaged agent ${agentImage.ref} extends ${spec.base}, but ${taskId} runs on ${taskImage}`)
  }
  if (!tag) throw new SandboxUnavailable(`the image of the packaged agent ${agentImage.ref} was not built`)
  return { tag, ...agentContainerSettings(agentImage, allowSecrets) }
}
