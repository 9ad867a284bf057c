import type { Config } from '../schema/config.ts'
import { agentBaseURL, agentBaseURLField, providerOf } from '../agents/shared/settings.ts'
import { graderBaseURLFields, graderEndpoints } from '../grading/grader/endpoints.ts'
import { insecureKeyMessage, insecureKeyTransport, keyHost } from '../secrets/key-transport.ts'

/** The built-in agents that send `agent.api_key_env`'s key to `agent.base_url` themselves. */
export const KEYED_AGENTS: readonly string[] = ['openai-cua', 'openai-chat', 'anthropic-cu']

/** One secret leaving the harness: which variable, who sends it, and where it goes. */
export interface KeyRoute {
  variable: string
  sender: 'agent' | 'grader' | 'container'
  /** Where it goes, for the banner: `127.0.0.1:8000`, `api.openai.com`, `the container of x:1.0.0`. */
  to: string
  /** The endpoint the key is sent to over the network (null: the SDK's default, api.openai.com; or none). */
  url: string | null
  /** Where that endpoint was set: a config field (`agent.base_url`) or a variable (`OPENAI_BASE_URL`). */
  field: string
  /** The field that allows plain HTTP to a third party for this route, and whether it is set. */
  allowField: string
  allowed: boolean
}

/** The packaged agent of a run, as far as keys are concerned. */
interface PackagedAgent {
  ref: string
  spec: { spec: { secrets: readonly string[] } }
}

/**
 * Every key a run sends, resolved the way the code that sends it resolves it: the model agents'
 * key to `agent.base_url` (else OPENAI_BASE_URL, else api.openai.com), each grader model's key to
 * its endpoint, and a packaged agent's secrets into its container (whose model calls then go to
 * `agent.base_url` with the key named by `agent.api_key_env`).
 */
export function keyRoutes(config: Config, agentImage: PackagedAgent | null, env: NodeJS.ProcessEnv = process.env): KeyRoute[] {
  const routes: KeyRoute[] = []
  const { agent, grader } = config
  const agentAllowed = { allowField: 'agent.allow_insecure_key', allowed: agent.allow_insecure_key === true }
  if (agent.name === 'image' && agentImage) {
    for (const variable of agentImage.spec.spec.secrets) {
      // The container gets every secret; the one named by api_key_env goes on to the model endpoint.
      const url = variable === agent.api_key_env ? agent.base_url : null
      routes.push({ variable, sender: 'container', to: `the container of ${agentImage.ref}`, url, field: 'agent.base_url', ...agentAllowed })
    }
  } else if (agent.name === 'command' || typeof config.agents[agent.name] === 'object') {
    // The program gets the key; where it sends it is its own affair, but agent.base_url is checked.
    const to = agent.base_url === null ? 'the command agent' : keyHost(agent.base_url)
    routes.push({ variable: agent.api_key_env, sender: 'agent', to, url: agent.base_url, field: 'agent.base_url', ...agentAllowed })
  } else if (KEYED_AGENTS.includes(agent.name)) {
    const url = agentBaseURL(agent, env)
    const to = url === null ? providerOf(agent.name).host : keyHost(url)
    routes.push({ variable: agent.api_key_env, sender: 'agent', to, url, field: agentBaseURLField(agent), ...agentAllowed })
  }
  const fields = graderBaseURLFields(grader)
  graderEndpoints(grader, env).forEach((endpoint, i) => {
    routes.push({
      variable: endpoint.apiKeyEnv,
      sender: 'grader',
      to: keyHost(endpoint.baseURL),
      url: endpoint.baseURL,
      field: fields[i]!,
      allowField: 'grader.allow_insecure_key',
      allowed: grader.allow_insecure_key === true,
    })
  })
  return routes
}

/**
 * The first route that would send a key that is set over plain HTTP to a host other than
 * loopback or host.docker.internal without its opt-in, as one line; null when there is none.
 * `source` names where a field was set: the config file, or the variable that overrode it.
 */
export function keyRefusal(routes: readonly KeyRoute[], env: NodeJS.ProcessEnv, source: (field: string) => string): string | null {
  for (const route of routes) {
    if (route.allowed || !env[route.variable]) continue
    const problem = insecureKeyTransport(route.url)
    if (problem) return insecureKeyMessage(source(route.field), route.variable, problem, route.allowField)
  }
  return null
}

/** `OPENAI_API_KEY → 127.0.0.1:8000 (agent), OPENAI_API_KEY → api.openai.com (grader)`; never a value. */
export function describeKeyRoutes(routes: readonly KeyRoute[], env: NodeJS.ProcessEnv = process.env): string {
  const lines = routes.map((route) => {
    const unset = env[route.variable] ? '' : ' (not set)'
    return `${route.variable}${unset} → ${route.to}${route.sender === 'container' ? '' : ` (${route.sender})`}`
  })
  return [...new Set(lines)].join(', ')
}
