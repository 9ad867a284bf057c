import type { Agent, HarnessAgent } from './agent.ts'
import { alternative, nearMiss, nop, oracle } from './builtin.ts'
import { BUILTIN_AGENTS } from './names.ts'
import type { CommandOptions } from '../schema/command-agent.ts'

const registered = new Map<string, Agent | HarnessAgent>([
  [oracle.name, oracle],
  [nop.name, nop],
  [nearMiss.name, nearMiss],
  [alternative.name, alternative],
])

/** Built-ins loaded on first use, so runs of other agents never load the model SDK or sharp. */
const lazy: Record<string, () => Promise<Agent | HarnessAgent>> = {
  'openai-cua': async () => (await import('./openai-cua/index.ts')).openaiCua,
  'anthropic-cu': async () => (await import('./anthropic-cu/index.ts')).anthropicCu,
  'openai-chat': async () => (await import('./openai-chat/index.ts')).openaiChat,
  replay: async () => (await import('./replay/index.ts')).replay,
  image: async () => (await import('./packaged/image-agent.ts')).imageAgent,
  command: async () => (await import('./command/index.ts')).commandAgent,
}

/** Adds an agent under its name (for agents defined in code, e.g. in a setup file). */
export function registerAgent(agent: Agent): void {
  if (BUILTIN_AGENTS.includes(agent.name)) throw new Error(`"${agent.name}" is a built-in agent; pick another name`)
  registered.set(agent.name, agent)
}

/**
 * Finds an agent by name: a registered one, or one declared in the config's `agents:` map
 * (imported on first use; its default export must be an agent).
 */
export async function resolveAgent(name: string, modules: Record<string, string>, commands: Record<string, CommandOptions> = {}): Promise<Agent | HarnessAgent> {
  const known = registered.get(name)
  if (known) return known
  const command = commands[name]
  if (command) {
    const agent = (await import('./command/index.ts')).commandAgentNamed(name, command)
    registered.set(name, agent)
    return agent
  }
  const builtin = lazy[name]
  if (builtin) {
    const agent = await builtin()
    registered.set(name, agent)
    return agent
  }
  const modulePath = modules[name]
  if (!modulePath) {
    const names = [...new Set([...registered.keys(), ...Object.keys(lazy), ...Object.keys(modules)])]
    throw new Error(`unknown agent "${name}" (known: ${names.join(', ')})`)
  }
  const loaded: { default?: unknown } = await import(/* @vite-ignore */ modulePath)
  const agent = loaded.default
  if (!isAgent(agent)) throw new Error(`${modulePath}: the default export must be defineAgent({ name, run })`)
  if (agent.name !== name) throw new Error(`${modulePath}: the agent is named "${agent.name}", but the config calls it "${name}"`)
  registered.set(name, agent)
  return agent
}

function isAgent(value: unknown): value is Agent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Agent).name === 'string' &&
    typeof (value as Agent).run === 'function'
  )
}
