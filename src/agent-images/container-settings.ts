import { agentPort } from '../schema/agent-image.ts'
import type { ResolvedRun } from '../schema/config.ts'

export type PackagedAgentImage = NonNullable<ResolvedRun['agent_image']>

/** What every container of a packaged agent gets from its spec, whichever way it acts. */
export interface AgentContainerSettings {
  limits: { memoryMb: number; cpus: number; pids: number }
  /** Its server's port, and its environment: the spec's values and the secrets the config allows. */
  server: { port: number; env: Record<string, string> }
  health: { path: string; timeout_ms: number }
}

export function agentContainerSettings(agentImage: PackagedAgentImage, allowSecrets: readonly string[]): AgentContainerSettings {
  const { spec } = agentImage.spec
  // Global setup has stopped the run already if one of them is not set or not allowed; only
  // variables the user's config allows ever leave the host, whatever the spec asks for.
  const allowed = new Set(allowSecrets)
  const secrets = Object.fromEntries(spec.secrets.filter((name) => allowed.has(name)).map((name) => [name, process.env[name] ?? '']))
  return {
    limits: { memoryMb: spec.requirements.memory_mb, cpus: spec.requirements.cpus, pids: spec.requirements.pids },
    server: { port: agentPort(agentImage.spec), env: { ...spec.environment, ...secrets } },
    health: spec.health,
  }
}

/** Whether the run's packaged agent acts through the served Computer (any task) rather than in its own desktop. */
export function actsThroughServedComputer(agentImage: PackagedAgentImage | null): boolean {
  return agentImage?.spec.spec.computer === 'served'
}
