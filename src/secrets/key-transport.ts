/**
 * Where an API key may go without TLS. A key sent over plain HTTP can be read by anyone on the
 * path, so it may travel unencrypted only to this machine (loopback) or to the Docker host gateway
 * (a container reaching a server on the host); anywhere else needs https, or an explicit opt-in
 * (`agent.allow_insecure_key`, `grader.allow_insecure_key`).
 */

/** The OpenAI SDK's default endpoint, used when no base URL is configured. */
export const DEFAULT_MODEL_HOST = 'api.openai.com'

/** Host names that reach this machine: loopback, the unspecified address, and the Docker host gateway. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  if (host === 'localhost' || host === 'host.docker.internal') return true
  // WHATWG URL parsing has already normalised 127.1, 2130706433 and the like to dotted quads.
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true
  // ::1, and IPv4 loopback mapped into IPv6 (::ffff:7f00:1 after normalisation).
  if (host === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)) return true
  // Connecting to the unspecified address reaches this machine (model servers listening on all interfaces print it).
  return host === '0.0.0.0' || host === '::'
}

/**
 * Why sending a key to `baseURL` is not safe, or null when it is: https anywhere, or plain HTTP
 * to loopback or the Docker host gateway. `null` means the SDK's default, https://api.openai.com.
 */
export function insecureKeyTransport(baseURL: string | null): string | null {
  if (baseURL === null) return null
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return `${baseURL} is not a URL`
  }
  if (url.protocol === 'https:') return null
  if (isLocalHost(url.hostname)) return null
  return `plain ${url.protocol.replace(/:$/, '')} to ${url.host}`
}

/** The host (with port) a key goes to, for messages: `127.0.0.1:8000`, `api.openai.com`. */
export function keyHost(baseURL: string | null): string {
  if (baseURL === null) return DEFAULT_MODEL_HOST
  try {
    return new URL(baseURL).host
  } catch {
    return baseURL
  }
}

/**
 * The one line refusing to send a key: names where the URL came from (a config field or a
 * variable), the variable holding the key, and the way out.
 */
export function insecureKeyMessage(field: string, variable: string, problem: string, allowField: string): string {
  return `${field}: refusing to send the key in ${variable} over ${problem} (without TLS a key may only go to loopback or host.docker.internal); use https, or set ${allowField}: true to send it anyway`
}
