import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { LineCounter, parseDocument } from 'yaml'
import { Config, type ConfigInput } from '../schema/config.ts'
import { BUILTIN_AGENTS } from '../agents/names.ts'
import type { CommandOptions } from '../schema/command-agent.ts'
import { BUILTIN_AGENT_OPTIONS } from '../agents/options-schemas.ts'
import { AgentOptionsError, parseOptions } from '../agents/shared/options.ts'
import { describeZodError, InputError } from '../errors/input-error.ts'
import { AgentImageRegistry, type LoadedAgentSpec } from '../agent-images/registry.ts'
import { agentImagePolicy, type AgentImagePolicy } from '../schema/agent-image.ts'
import { keyRefusal, keyRoutes } from './keys.ts'
import { providerOf } from '../agents/shared/settings.ts'
import { unpricedCostLimit } from '../limits/index.ts'

export const CONFIG_FILE = 'agentest.config.yaml'

/** Environment overrides: variable -> where it goes in the config and how to read it. */
const ENV_OVERRIDES = {
  AGENTEST_AGENT: { path: ['agent', 'name'], read: text },
  AGENTEST_MODEL: { path: ['agent', 'model'], read: text },
  AGENTEST_BASE_URL: { path: ['agent', 'base_url'], read: text },
  AGENTEST_AGENT_SPEC: { path: ['agent', 'spec'], read: text },
  AGENTEST_AGENT_COMMAND: { path: ['agent', 'options', 'command'], read: words },
  AGENTEST_API_KEY_ENV: { path: ['agent', 'api_key_env'], read: text },
  AGENTEST_MAX_STEPS: { path: ['max_steps'], read: integer },
  AGENTEST_RUN_NAME: { path: ['run', 'name'], read: text },
  AGENTEST_RUN_ID: { path: ['run', 'id'], read: text },
  AGENTEST_RESULTS_DIR: { path: ['run', 'results_dir'], read: text },
  AGENTEST_EPOCHS: { path: ['run', 'epochs'], read: integer },
  AGENTEST_CONCURRENCY: { path: ['run', 'concurrency'], read: integer },
  AGENTEST_CACHE: { path: ['run', 'cache'], read: text },
  AGENTEST_MODEL_CACHE: { path: ['run', 'model_cache'], read: boolean },
  AGENTEST_PROGRESS_MS: { path: ['run', 'progress_ms'], read: integer },
  AGENTEST_TASK_TIMEOUT_MS: { path: ['run', 'task_timeout_ms'], read: integer },
  AGENTEST_INFRA_RETRIES: { path: ['run', 'infra_retries'], read: integer },
  AGENTEST_STEP_SCREENSHOTS: { path: ['run', 'step_screenshots'], read: boolean },
  AGENTEST_TASK_TOKENS: { path: ['limits', 'task_tokens'], read: integer },
  AGENTEST_TASK_COST_USD: { path: ['limits', 'task_cost_usd'], read: decimal },
  AGENTEST_RUN_TOKENS: { path: ['limits', 'run_tokens'], read: integer },
  AGENTEST_RUN_COST_USD: { path: ['limits', 'run_cost_usd'], read: decimal },
  AGENTEST_BROWSER: { path: ['browser', 'executable_path'], read: text },
  AGENTEST_BROWSER_SCOPE: { path: ['browser', 'scope'], read: text },
  AGENTEST_BROWSER_CONNECT: { path: ['browser', 'connect'], read: text },
  AGENTEST_BROWSER_PROXY_HOST: { path: ['browser', 'proxy_host'], read: text },
  AGENTEST_OMNIZON_URL: { path: ['apps', 'omnizon', 'url'], read: text },
  AGENTEST_KEEP_CONTAINERS: { path: ['docker', 'keep_on_failure'], read: boolean },
  AGENTEST_WARM_POOL: { path: ['docker', 'warm_pool'], read: integer },
  AGENTEST_GRADER_MODEL: { path: ['grader', 'model'], read: list },
  AGENTEST_GRADER_BASE_URL: { path: ['grader', 'base_url'], read: text },
  AGENTEST_GRADER_API_KEY_ENV: { path: ['grader', 'api_key_env'], read: text },
} as const

/** An agent's key is read from its provider's usual variable (ANTHROPIC_API_KEY for Claude) unless named. */
function defaultKeyVariable(merged: Record<string, unknown>): void {
  const agent = merged.agent
  if (typeof agent !== 'object' || agent === null || Array.isArray(agent)) return
  const fields = agent as Record<string, unknown>
  if (fields.api_key_env === undefined && typeof fields.name === 'string') fields.api_key_env = providerOf(fields.name).keyEnv
}

function text(value: string): string {
  return value
}

/** "a,b,c" is a list (grader models that vote); one name stays a name. */
function list(value: string): string | string[] {
  const items = value.split(',').map((item) => item.trim()).filter(Boolean)
  return items.length > 1 ? items : value.trim()
}

/** "python3 agents/my_agent.py --fast": a program and its arguments, split at spaces (no quoting). */
function words(value: string): string[] {
  return value.trim().split(/\s+/)
}

function boolean(value: string): boolean | string {
  if (/^(1|true|yes)$/i.test(value)) return true
  if (/^(0|false|no)$/i.test(value)) return false
  return value
}

function decimal(value: string): number | string {
  return /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value
}

function integer(value: string): number | string {
  return /^\d+$/.test(value.trim()) ? Number(value) : value
}

export interface LoadedConfig {
  config: Config
  /** Absolute path of the YAML file, or null when none exists. */
  file: string | null
  /** Absolute module paths of user agents by name. */
  agentModules: Record<string, string>
  /** Command agents declared under `agents:`, by name (their cwd made absolute). */
  agentCommands: Record<string, CommandOptions>
  /** The packaged agent's spec, when the agent is `image`. */
  agentImage: LoadedAgentSpec | null
  /** Where agent image specs are looked for (absolute), and what the config lets them have. */
  agentImages: { folders: string[]; policy: AgentImagePolicy }
}

/** Config fields that an environment variable may have set, and that variable. */
const FIELD_VARIABLES: Record<string, string> = {
  'agent.base_url': 'AGENTEST_BASE_URL',
  'grader.base_url': 'AGENTEST_GRADER_BASE_URL',
}

/**
 * Reads agentest.config.yaml (or AGENTEST_CONFIG), applies AGENTEST_* overrides and validates
 * the result. Every problem becomes an InputError whose message names the file (or variable)
 * and the field.
 */
export function loadConfig(root: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const file = resolve(root, env.AGENTEST_CONFIG ?? CONFIG_FILE)
  const shown = relative(root, file) || file
  let raw: Record<string, unknown> = {}
  if (existsSync(file)) raw = readYaml(file, shown)
  else if (env.AGENTEST_CONFIG) throw new InputError(`AGENTEST_CONFIG: no such file: ${file}`)

  const parsedFile = Config.safeParse(raw)
  if (!parsedFile.success) throw new InputError(describeZodError(shown, parsedFile.error))

  const merged = structuredClone(raw) as ConfigInput & Record<string, unknown>
  for (const [variable, { path, read }] of Object.entries(ENV_OVERRIDES)) {
    const value = env[variable]
    if (value === undefined || value === '') continue
    setPath(merged, path, read(value))
    const checked = Config.safeParse(merged)
    if (!checked.success) {
      const issue = checked.error.issues.find((i) => i.path.join('.') === path.join('.'))
      if (issue) throw new InputError(`${variable}=${JSON.stringify(value)}: ${path.join('.')}: ${issue.message}`)
    }
  }
  defaultKeyVariable(merged)
  const parsed = Config.safeParse(merged)
  if (!parsed.success) throw new InputError(describeZodError(shown, parsed.error))
  const config = parsed.data

  const base = existsSync(file) ? dirname(file) : root
  const agentModules: Record<string, string> = {}
  const agentCommands: Record<string, CommandOptions> = {}
  for (const [name, modulePath] of Object.entries(config.agents)) {
    if (BUILTIN_AGENTS.includes(name)) {
      throw new InputError(`${shown}: agents.${name}: "${name}" is a built-in agent; pick another name`)
    }
    if (typeof modulePath !== 'string') {
      // A command agent: its program runs from the config file's folder unless it says otherwise.
      agentCommands[name] = { ...modulePath, cwd: resolve(base, modulePath.cwd ?? '.') }
      continue
    }
    const absolute = isAbsolute(modulePath) ? modulePath : resolve(base, modulePath)
    if (!existsSync(absolute)) throw new InputError(`${shown}: agents.${name}: no such module: ${modulePath}`)
    agentModules[name] = absolute
  }
  const known = [...BUILTIN_AGENTS, ...Object.keys(agentModules), ...Object.keys(agentCommands)]
  if (!known.includes(config.agent.name)) {
    const source = env.AGENTEST_AGENT ? 'AGENTEST_AGENT' : `${shown}: agent.name`
    throw new InputError(`${source}: unknown agent "${config.agent.name}" (known: ${known.join(', ')})`)
  }
  const unpriced = unpricedCostLimit(config)
  if (unpriced) throw new InputError(`${shown}: ${unpriced}`)
  const optionsSchema = BUILTIN_AGENT_OPTIONS[config.agent.name]
  if (optionsSchema) {
    try {
      parseOptions(config.agent.name, optionsSchema, config.agent.options)
    } catch (error) {
      const chosen = env.AGENTEST_AGENT ? ` (AGENTEST_AGENT=${config.agent.name})` : ''
      if (error instanceof AgentOptionsError) throw new InputError(`${shown}: ${error.message}${chosen}`)
      throw error
    }
  }
  const agentImages = {
    folders: config.agent_images.folders.map((f) => resolve(base, f)),
    policy: agentImagePolicy(config.agent_images, existsSync(file) ? shown : CONFIG_FILE),
  }
  let agentImage: LoadedAgentSpec | null = null
  if (config.agent.name === 'image') {
    const registry = AgentImageRegistry.load(agentImages.folders, root, agentImages.policy)
    try {
      agentImage = registry.resolve(config.agent.spec!)
    } catch (error) {
      const source = env.AGENTEST_AGENT_SPEC ? 'AGENTEST_AGENT_SPEC' : `${shown}: agent.spec`
      throw new InputError(`${source}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  // A key goes over plain HTTP only to this machine (or the Docker host gateway), unless the config opts in.
  const refused = keyRefusal(keyRoutes(config, agentImage, env), env, (field) => {
    const variable = FIELD_VARIABLES[field]
    if (variable && env[variable]) return variable
    return field.includes('.') ? `${shown}: ${field}` : field
  })
  if (refused) throw new InputError(refused)
  return { config, file: existsSync(file) ? file : null, agentModules, agentCommands, agentImage, agentImages }
}

function readYaml(file: string, shown: string): Record<string, unknown> {
  const lineCounter = new LineCounter()
  const doc = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: false, lineCounter })
  const error = doc.errors[0]
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0])
    const where = `${shown}:${line}:${col}`
    throw new InputError(`${where}: malformed YAML: ${error.message.split('\n')[0]}`)
  }
  const value: unknown = doc.toJS()
  if (value === null || value === undefined) return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError(`${shown}: expected a mapping of settings at the top level`)
  }
  return value as Record<string, unknown>
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[path[path.length - 1]!] = value
}
