import { stringify } from 'yaml'
import type { AgentConfig } from '../schema/config.ts'

const REDACTED = '[redacted]'
/** Option names whose values are secrets whatever they hold (`max_output_tokens` is not one). */
const SECRET_KEY = /(api[_-]?key|secret|password|passwd|authorization|credential|bearer|(^|_)token$)/i

/** Replaces every occurrence of the secrets, and any bearer token, in a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED)
  return out.replace(/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`)
}

/** Scrubs an error's message and stack in place, so its class (which decides the task's status) survives. */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return new Error(redact(String(error), secrets))
  error.message = redact(error.message, secrets)
  if (error.stack) error.stack = redact(error.stack, secrets)
  return error
}

/**
 * The agent's config as YAML for the record (`agent_yaml`): secret-looking options, URL
 * credentials and the API key's value are redacted. `api_key_env` is a variable's name, so it stays.
 */
export function agentYaml(config: AgentConfig, env: NodeJS.ProcessEnv = process.env): string {
  // `spec` only means something for packaged agents.
  const { spec, ...rest } = config
  return stringify(scrubSecrets(spec === null ? rest : config, [env[config.api_key_env]]))
}

/**
 * A copy of a settings object with secret-looking keys, URL credentials and the given secret
 * values redacted (names of variables, like `api_key_env`, stay).
 */
export function scrubSecrets<T>(value: T, secretValues: ReadonlyArray<string | undefined>): T {
  const secrets = secretValues.filter((s): s is string => Boolean(s))
  const scrub = (inner: unknown, name: string | null): unknown => {
    // Names of variables (`api_key_env`) and lists of them (`allow_secrets`) are not secrets.
    if (name !== null && !name.endsWith('_env') && !name.startsWith('allow_') && SECRET_KEY.test(name) && inner !== null) return REDACTED
    if (typeof inner === 'string') return redact(stripUserInfo(inner), secrets)
    if (Array.isArray(inner)) return inner.map((v) => scrub(v, null))
    if (inner && typeof inner === 'object') {
      return Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, scrub(v, k)]))
    }
    return inner
  }
  return scrub(value, null) as T
}

/** `https://user:pass@host/` -> `https://[redacted]@host/`. */
function stripUserInfo(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/i, `$1${REDACTED}@`)
}
