import { z } from 'zod'

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
/** Semantic versions (1.2.0, 0.3.1-rc.1), so "latest" can mean the highest. */
const SemVer = z
  .string()
  .regex(/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/, 'a semantic version like 1.2.0')

/** The most an agent image may ask for; the config may lower or raise them. */
export const AgentImageMaxima = z
  .object({
    memory_mb: z.number().int().min(256).default(8192),
    cpus: z.number().positive().default(4),
    pids: z.number().int().min(64).default(4096),
  })
  .strict()
export type AgentImageMaxima = z.infer<typeof AgentImageMaxima>

/** What the user's config lets a spec have, beyond what agentest never grants. */
export interface AgentImagePolicy {
  /** The most a spec may ask for. */
  max: AgentImageMaxima
  /** Host variables a spec's `secrets:` may name; any other is refused. */
  allowSecrets: readonly string[]
  /** Where that list is set, for messages. */
  allowSecretsFrom: string
}

/** The policy of a config that says nothing: default maxima, and no host variable passed in. */
export function agentImagePolicy(
  config: { max?: AgentImageMaxima; allow_secrets?: readonly string[] } = {},
  configFile = 'agentest.config.yaml',
): AgentImagePolicy {
  return {
    max: config.max ?? AgentImageMaxima.parse({}),
    allowSecrets: config.allow_secrets ?? [],
    allowSecretsFrom: `${configFile}'s agent_images.allow_secrets`,
  }
}

const Requirements = z
  .object({
    memory_mb: z.number().int().min(256).default(2048),
    cpus: z.number().positive().default(1),
    pids: z.number().int().min(64).default(512),
  })
  .strict()

const Port = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a lowercase port name like "agent"'),
    port: z.number().int().min(1).max(65_535),
  })
  .strict()

/**
 * Fields a container spec elsewhere might carry that agentest never grants. They are named in
 * the schema so the refusal can say exactly what is refused, rather than "unknown key".
 */
const Refusable = {
  privileged: z.unknown().optional(),
  network: z.unknown().optional(),
  network_mode: z.unknown().optional(),
  mounts: z.unknown().optional(),
  volumes: z.unknown().optional(),
  cap_add: z.unknown().optional(),
  devices: z.unknown().optional(),
  security_opt: z.unknown().optional(),
}

const Spec = z
  .object({
    description: z.string().min(1, 'say what the agent is'),
    capabilities: z.array(z.string().min(1)).default([]),
    /**
     * How the agent acts: `own-desktop` (its server runs in the task's desktop container and acts
     * there by itself; desktop tasks only) or `served` (its container acts only through the task's
     * Computer, served to it over MCP and HTTP; any task, browser or desktop).
     */
    computer: z.enum(['own-desktop', 'served']).default('own-desktop'),
    /**
     * The sandbox image this one extends (a name without a tag, like agentest/desktop). Needed for
     * `own-desktop`, where the agent runs on the task's own image; a `served` image may name none.
     */
    base: z.string().regex(/^[a-z0-9][a-z0-9._/-]*$/, 'an image name without a tag, like agentest/desktop').optional(),
    /** A prebuilt image... */
    image: z.string().min(1).optional(),
    /** ...or a build: context relative to the spec file, Dockerfile relative to the context. */
    build: z
      .object({
        context: z.string().min(1).default('.'),
        dockerfile: z.string().min(1).default('Dockerfile'),
        args: z.record(z.string(), z.string()).default({}),
      })
      .strict()
      .optional(),
    requirements: Requirements.default(Requirements.parse({})),
    /** Literal values; use `secrets` for anything sensitive. */
    environment: z.record(EnvName, z.union([z.string(), z.number(), z.boolean()]).transform(String)).default({}),
    /** Names of host environment variables passed into the container; their values never leave the host otherwise. */
    secrets: z.array(EnvName).default([]),
    ports: z.array(Port).min(1, 'name the agent server\'s port: - { name: agent, port: 8000 }'),
    health: z
      .object({
        path: z.string().startsWith('/', 'a path like /health'),
        timeout_ms: z.number().int().positive().max(600_000).default(60_000),
      })
      .strict(),
    ...Refusable,
  })
  .strict()

export const AgentImageSpec = z
  .object({
    apiVersion: z.literal('agentest/v1', 'this agentest reads apiVersion: agentest/v1'),
    kind: z.literal('AgentImage', 'kind must be AgentImage'),
    metadata: z
      .object({
        name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and "-"'),
        version: SemVer,
      })
      .strict(),
    spec: Spec,
  })
  .strict()
export type AgentImageSpec = z.infer<typeof AgentImageSpec>

/**
 * What is wrong with a spec beyond its shape: each entry is a field path and why it is refused.
 * (Where its build context points is checked by the loader, which knows the file.)
 */
export function refusals(spec: AgentImageSpec, policy: AgentImagePolicy = agentImagePolicy()): Array<{ path: string; message: string }> {
  const { max } = policy
  const found: Array<{ path: string; message: string }> = []
  const refuse = (path: string, message: string) => found.push({ path: `spec.${path}`, message })
  const s = spec.spec
  if (s.privileged !== undefined && s.privileged !== false) refuse('privileged', 'privileged mode is refused')
  for (const key of ['network', 'network_mode'] as const) {
    const mode = s[key]
    if (mode === undefined || mode === 'bridge') continue
    if (mode === 'host') refuse(key, 'host networking is refused')
    else if (typeof mode === 'string' && mode.startsWith('container:')) refuse(key, 'sharing another container\'s network is refused')
    else refuse(key, 'only the default bridge network is allowed')
  }
  for (const key of ['mounts', 'volumes'] as const) {
    const entries = s[key]
    if (entries === undefined) continue
    const list = Array.isArray(entries) ? entries : [entries]
    list.forEach((entry, i) => {
      const text = typeof entry === 'string' ? entry : JSON.stringify(entry)
      if (/docker\.sock/.test(text)) refuse(`${key}[${i}]`, 'mounting the Docker socket is refused')
      else refuse(`${key}[${i}]`, 'host mounts are refused (copy what the agent needs into its image)')
    })
  }
  if (Object.values(s.environment).some((value) => /docker\.sock/.test(value))) {
    const name = Object.keys(s.environment).find((k) => /docker\.sock/.test(s.environment[k]!))!
    refuse(`environment.${name}`, 'pointing the agent at the Docker socket is refused')
  }
  if (s.cap_add !== undefined && !(Array.isArray(s.cap_add) && s.cap_add.length === 0)) {
    refuse('cap_add', 'added capabilities are refused (the container runs with none)')
  }
  if (s.devices !== undefined && !(Array.isArray(s.devices) && s.devices.length === 0)) refuse('devices', 'host devices are refused')
  if (s.security_opt !== undefined) refuse('security_opt', 'security options are set by agentest, not by the agent')
  if (s.computer === 'own-desktop' && !s.base) refuse('base', 'an own-desktop agent runs on the task\'s image: name the sandbox image it extends (base: agentest/desktop), or act through the served Computer (computer: served)')
  if (s.image && s.build) refuse('image', 'give either image or build, not both')
  if (!s.image && !s.build) refuse('build', 'give the image to run (image: ...) or how to build it (build: { context, dockerfile })')
  s.secrets.forEach((name, i) => {
    if (!policy.allowSecrets.includes(name)) refuse(`secrets[${i}]`, `${name} is not allowed by ${policy.allowSecretsFrom}`)
  })
  if (!s.ports.some((p) => p.name === 'agent')) refuse('ports', 'one port must be named "agent": it serves the protocol')
  const names = s.ports.map((p) => p.name)
  if (new Set(names).size !== names.length) refuse('ports', 'port names must be unique')
  const r = s.requirements
  if (r.memory_mb > max.memory_mb) refuse('requirements.memory_mb', `${r.memory_mb} is above the allowed maximum of ${max.memory_mb}`)
  if (r.cpus > max.cpus) refuse('requirements.cpus', `${r.cpus} is above the allowed maximum of ${max.cpus}`)
  if (r.pids > max.pids) refuse('requirements.pids', `${r.pids} is above the allowed maximum of ${max.pids}`)
  return found
}

/** The agent server's port (validated to exist). */
export function agentPort(spec: AgentImageSpec): number {
  return spec.spec.ports.find((p) => p.name === 'agent')!.port
}
