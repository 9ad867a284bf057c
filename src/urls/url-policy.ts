/**
 * 'allow'; 'offsite' (refused quietly: not a clone); or 'blocked' (recorded as a violation,
 * which ends the task).
 */
export type Verdict = 'allow' | 'offsite' | 'blocked'

/**
 * Decides which URLs a task's pages may load: the web clones' origins and the configured extra
 * hosts, minus the blocklist. Harness-only endpoints (a clone's /config and /finish) are on the
 * blocklist, so an agent cannot read or reset the state it is graded on. A URL is matched as
 * written and as the server it reaches will read it (`spellings`), and one with credentials is
 * blocked: `http://x@127.0.0.1:4100/finish` does not contain `http://127.0.0.1:4100/finish`.
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
    const parsed = parse(url)
    // Chromium sends a navigation to `http://x@host/finish` without the user name, while routing
    // sees it with: no clone needs credentials in a URL, so none passes.
    if (parsed && hasCredentials(parsed)) return 'blocked'
    if (this.isBlocked(url)) return 'blocked'
    if (!parsed) return 'offsite'
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
    if (!parsed || !scheme || hasCredentials(parsed)) return 'blocked'
    const asHttp = `${scheme}${parsed.href.slice(parsed.protocol.length)}`
    if (this.isBlocked(url)) return 'blocked'
    return this.classify(asHttp) === 'allow' ? 'allow' : 'blocked'
  }

  /**
   * Whether the blocklist names the URL as written or any way the server it reaches may read it
   * (`spellings`): the raw form keeps everything blocked that was, the others close the gaps.
   */
  private isBlocked(url: string): boolean {
    const forms = spellings(url)
    return this.blocked.some((match) => forms.some(match))
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

function hasCredentials(url: URL): boolean {
  return url.username !== '' || url.password !== ''
}

/** Every name of this machine's loopback interface a clone on it answers to, as URL.hostname spells them. */
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]']

/**
 * The URL as written, then as the server it reaches may route it. Parsed the way Chromium parses
 * it (the WHATWG parser: scheme and host case, `2130706433`, `0x7f.1`, `127.1`, `127.0.0.%31`,
 * `\`, tabs and dot segments all come out canonical), without credentials, the host's trailing dot
 * or an IPv4-mapped IPv6 spelling; a loopback host under each loopback name; the path as sent,
 * percent-decoded (until nothing changes) and that re-parsed (decoding may make `..` or `\`),
 * each also with repeated and trailing slashes dropped, and lower-cased (servers that route
 * without case exist). The query is kept, the fragment (never sent) is not. Each spelling only
 * adds ways to match: none un-blocks a URL.
 */
export function spellings(url: string): string[] {
  const parsed = parse(url)
  if (!parsed) return [url]
  const host = plainHost(parsed.hostname)
  const hosts = isLoopback(host) ? [host, ...LOOPBACK] : [host]
  const port = parsed.port ? `:${parsed.port}` : ''
  const decoded = decodeAll(parsed.pathname)
  // `?` and `#` decoded from the path stay in it: escaped again before re-parsing.
  const reparsed = parse(`http://h${decoded.replace(/[?#]/g, encodeURIComponent)}`)?.pathname ?? decoded
  const paths = new Set<string>()
  for (const path of [parsed.pathname, decoded, reparsed]) {
    const tidy = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')
    paths.add(path).add(tidy).add(tidy.toLowerCase())
  }
  const forms = new Set([url])
  for (const name of hosts) for (const path of paths) forms.add(`${parsed.protocol}//${name}${port}${path}${parsed.search}`)
  return [...forms]
}

/** A host without its trailing dot, and an IPv4-mapped IPv6 address (`[::ffff:7f00:1]`) as the IPv4 one it reaches. */
function plainHost(hostname: string): string {
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(hostname)
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)]
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return hostname.replace(/\.$/, '')
}

/** Whether a (plain) host is this machine: a loopback address or name, or the unspecified address. */
function isLoopback(host: string): boolean {
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host === 'localhost' || host.endsWith('.localhost') || ['[::1]', '0.0.0.0', '[::]'].includes(host)
}

/** A path percent-decoded until nothing changes (a few rounds: `%2566` is `%66` is `f`), or as far as it decodes. */
function decodeAll(path: string): string {
  for (let round = 0; round < 3 && path.includes('%'); round++) {
    try {
      path = decodeURIComponent(path)
    } catch {
      break
    }
  }
  return path
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80')
}

/** A pattern is a substring, or a /regular expression/ with optional flags. */
function toMatcher(pattern: string): (url: string) => boolean {
  const regex = /^\/(.+)\/([a-z]*)$/.exec(pattern)
  if (regex) {
    // Without g or y: a stateful regex would answer differently for each spelling it is shown.
    const compiled = new RegExp(regex[1]!, regex[2]!.replace(/[gy]/g, ''))
    return (url) => compiled.test(url)
  }
  return (url) => url.includes(pattern)
}
