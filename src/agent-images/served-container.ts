import { randomBytes } from 'node:crypto'
import type Docker from 'dockerode'
import { runNetwork } from '../docker/agent-network.ts'
import { execIn } from '../docker/exec.ts'
import { containerLabels } from '../docker/labels.ts'
import { containerLogs } from '../docker/logs.ts'
import { AgentServerClient, type AgentServerProbe } from './client.ts'
import type { AgentContainerSettings } from './container-settings.ts'
import { parseListeners } from './listeners.ts'

export interface ServedAgentContainerOptions {
  docker: Docker
  /** The built agent image. */
  image: string
  runId: string
  taskId: string
  settings: AgentContainerSettings
  /** Scrubs the run's secrets from the container's log lines, which messages quote. */
  redact: (text: string) => string
  /** Whether to wait until its server is healthy (agent:check waits itself, to report it); true by default. */
  waitHealthy?: boolean
}

/** A served agent's container, running and healthy, with the client that drives its server. */
export interface ServedAgentContainer {
  name: string
  client: AgentServerClient
  close(): Promise<void>
}

/** Who a served agent's processes run as when its image names no user (or root): nobody. */
const NOBODY = '65534:65534'

/**
 * Starts a packaged agent that acts through the served Computer: its image's own command, in a
 * container of its own on the run's network (no other container reachable, this machine only at
 * the relays' ports: the model's and the task's Computer), its port published on 127.0.0.1 only,
 * without capabilities or a way to gain them, and never as root. Waits until it is healthy; a
 * server that cannot become healthy is said with why (AgentStartError) and its container goes.
 */
export async function startServedAgent(options: ServedAgentContainerOptions): Promise<ServedAgentContainer> {
  const { docker, settings } = options
  const network = await runNetwork(docker, options.runId)
  const imageUser = await docker.getImage(options.image).inspect().then((info) => info.Config?.User ?? '', () => '')
  const portKey = `${settings.server.port}/tcp`
  const name = `agentest-agent-${options.taskId.replaceAll(/[^a-zA-Z0-9_.-]/g, '-')}-${randomBytes(4).toString('hex')}`
  const container = await docker.createContainer({
    name,
    Image: options.image,
    User: isRoot(imageUser) ? NOBODY : imageUser,
    Labels: containerLabels(options.runId, options.taskId),
    Env: Object.entries(settings.server.env).map(([k, v]) => `${k}=${v}`),
    ExposedPorts: { [portKey]: {} },
    HostConfig: {
      Memory: settings.limits.memoryMb * 1024 * 1024,
      NanoCpus: Math.round(settings.limits.cpus * 1e9),
      PidsLimit: settings.limits.pids,
      NetworkMode: network.id,
      PortBindings: { [portKey]: [{ HostIp: '127.0.0.1', HostPort: '' }] },
      // Where the relays listen: the network's gateway (docker0's host-gateway is firewalled).
      ExtraHosts: [`host.docker.internal:${network.gateway}`],
      Privileged: false,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
    },
  })
  const close = () => container.remove({ force: true, v: true }).then(() => undefined, () => undefined)
  try {
    await container.start()
    const info = await container.inspect()
    const hostPort = info.NetworkSettings.Ports?.[portKey]?.[0]?.HostPort
    if (!hostPort) throw new Error(`container ${name}: port ${settings.server.port} is not published`)
    const client = new AgentServerClient(`http://127.0.0.1:${hostPort}`, network.gateway, probe(container, name, settings.server.port, options.redact), 'served')
    if (options.waitHealthy !== false) await client.waitHealthy(settings.health.path, settings.health.timeout_ms)
    return { name, client, close }
  } catch (error) {
    await close()
    throw error
  }
}

function isRoot(user: string): boolean {
  return user === '' || user === 'root' || user === '0' || user.startsWith('0:') || user.startsWith('root:')
}

/** What the harness sees of the server from outside: it is the container's main process, so the container's state is its state. */
function probe(container: Docker.Container, name: string, port: number, redact: (text: string) => string): AgentServerProbe {
  const state = () => container.inspect().then((info) => info.State, () => null)
  return {
    port,
    logs: async () => redact((await containerLogs(container, 20)).trim()),
    gone: async () => {
      const s = await state()
      if (!s) return `container ${name} was removed`
      if (s.OOMKilled) return `container ${name} was killed at its memory limit`
      return null
    },
    server: async () => {
      const s = await state()
      if (!s) return null
      return s.Running ? { running: true } : { running: false, code: s.ExitCode }
    },
    // As root, reading the kernel's tables: any image with `cat` answers.
    listening: async () => {
      const read = await execIn(container, ['cat', '/proc/net/tcp', '/proc/net/tcp6'], { user: 'root', timeoutMs: 5_000 })
      return parseListeners(read.stdout.toString())
    },
  }
}
