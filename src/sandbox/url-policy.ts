/**
 * Decides which URLs a task's pages may load: the web clones' origins and the configured extra
 * hosts, minus the blocklist. Harness-only endpoints (a clone's /config and /finish) are on the
 * blocklist, so an agent cannot read or reset the state it is graded on.
 */
export class UrlPolicy {
  private readonly origins: Set<string>
  private readonly blocked: Array<(url: string) => boolean>

  constructor(options: { origins: string[]; allowHosts: string[]; blocklist: string[] }) {
    this.origins = new Set(options.origins.map((o) => new URL(o).origin))
    this.allowHosts = options.allowHosts.map((h) => h.toLowerCase())
    this.blocked = options.blocklist.map(toMatcher)
  }

  private readonly allowHosts: string[]

  /** 'allow', 'offsite' (refused quietly: not a clone), or 'blocked' (a blocklist hit, which ends the task). */
  classify(url: string): 'allow' | 'offsite' | 'blocked' {
    if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return 'allow'
    if (this.blocked.some((match) => match(url))) return 'blocked'
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
