/**
 * 'allow'; 'offsite' (refused quietly: not a clone); or 'blocked' (recorded as a violation,
 * which ends the task).
 */
export type Verdict = 'allow' | 'offsite' | 'blocked'

/**
 * Decides which URLs a task's pages may load: the web clones' origins and the configured extra
 * hosts, minus the blocklist. Harness-only endpoints (a clone's /config and /finish) are on the
 * blocklist, so an agent cannot read or reset the state it is graded on.
 */
export class UrlPolicy {
  /** The clones' `host:port` pairs (a host as URL.hostname spells it, IPv6 in brackets). */
  readonly endpoints: string[]
  /** Hosts allowed on any port and scheme, lower-cased. */
  readonly allowHosts: string[]
  private readonly origins: Set<string>
  private readonly blocked: Array<(url: string) => boolean>

  constructor(options: { origins: string[]; allowHosts: string[]; blocklist: string[] }) {
    const origins = options.origins.map((o) => new URL(o))
    this.origins = new Set(origins.map((o) => o.origin))
    this.endpoints = origins.map((o) => `${o.hostname}:${portOf(o)}`)
    this.allowHosts = options.allowHosts.map((h) => h.toLowerCase())
    this.blocked = options.blocklist.map(toMatcher)
  }

  /**
   * A sub-resource request (an image, a script, a fetch). Inline data: and blob: resources hold
   * nothing from outside the page, so they load; what a page may *become* is `classifyNavigation`.
   */
  classify(url: string): Verdict {
    if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return 'allow'
    if (this.isBlocked(url)) return 'blocked'
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return 'offsite'
    }
    if (this.origins.has(parsed.origin)) return 'allow'
    if (this.allowHosts.includes(parsed.hostname.toLowerCase())) return 'allow'
    return 'offsite'
  }

  /**
   * What a frame (top-level or iframe) may show. Only web pages and the empty page: a data:,
   * blob:, javascript: or file: document would be a page the agent wrote, or a file of the
   * machine, so it is 'blocked'. Web pages are judged as requests are.
   */
  classifyNavigation(url: string): Verdict {
    const parsed = parse(url)
    if (!parsed) return 'offsite'
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return this.classify(url)
    if (parsed.protocol === 'about:' && (parsed.pathname === 'blank' || parsed.pathname === 'srcdoc')) return 'allow'
    return 'blocked'
  }

  /**
   * A WebSocket: to a clone or an allowed host it connects; anything else is 'blocked', not
   * 'offsite': a clone has no use for a socket to elsewhere, which can only be a channel out.
   */
  classifySocket(url: string): 'allow' | 'blocked' {
    const parsed = parse(url)
    const scheme = parsed && { 'ws:': 'http:', 'wss:': 'https:' }[parsed.protocol]
    if (!parsed || !scheme) return 'blocked'
    const asHttp = `${scheme}${parsed.href.slice(parsed.protocol.length)}`
    if (this.isBlocked(url)) return 'blocked'
    return this.classify(asHttp) === 'allow' ? 'allow' : 'blocked'
  }

  /**
   * Whether the blocklist names the URL, as written or with its path percent-decoded: servers
   * route `/%66inish` to `/finish` (Omnizon's Hono does), and browsers send it as written.
   */
  private isBlocked(url: string): boolean {
    const decoded = decodedPath(url)
    return this.blocked.some((match) => match(url) || (decoded !== null && match(decoded)))
  }

  /** Whether a connection to `host:port` (a proxy's CONNECT) reaches a clone or an allowed host. */
  mayConnect(host: string, port: string): boolean {
    const hostname = host.toLowerCase()
    return this.allowHosts.includes(hostname) || this.endpoints.includes(`${hostname}:${port}`)
  }
}

/** A URL as the browser reads it (case, whitespace and tabs in the scheme do not hide it), or null. */
function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** The URL with its path percent-decoded (until nothing changes), or null when there is nothing to decode. */
function decodedPath(url: string): string | null {
  const parsed = parse(url)
  if (!parsed || !parsed.pathname.includes('%')) return null
  let path = parsed.pathname
  for (let round = 0; round < 3 && path.includes('%'); round++) {
    try {
      path = decodeURIComponent(path)
    } catch {
      break
    }
  }
  return `${parsed.protocol}//${parsed.host}${path}${parsed.search}`
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80')
}

/** A pattern is a substring, or a /regular expression/ with optional flags. */
function toMatcher(pattern: string): (url: string) => boolean {
  const regex = /^\/(.+)\/([a-z]*)$/.exec(pattern)
  if (regex) {
    const compiled = new RegExp(regex[1]!, regex[2])
    return (url) => compiled.test(url)
  }
  return (url) => url.includes(pattern)
}
