import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { UrlPolicy } from '../../urls/url-policy.ts'

/** Headers about the connection to the proxy, not for the clone. */
const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive']

/** How long a refused tunnel may take to say what it was for before it is dropped unrecorded. */
const FIRST_BYTES_MS = 5_000

/**
 * The browser context's proxy: every connection of the context but those to the allowed hosts
 * comes here. Plain-http requests carry their full URL. With `judges` (the clones are plain http
 * and no other host is allowed) each one is judged by it: a clone's URL passes unless the
 * blocklist names it (refused and recorded), anything else is refused quietly. Popups, workers and
 * shared workers are covered from their first request, and the browser keeps its cache: routing
 * every request through Playwright switches the cache off and costs the browser about as much
 * again per page (measured by scripts/perf). Without `judges`, request routing in the pages
 * (`BrowserSandbox`) has judged them already, https paths included, and only the target is checked.
 *
 * Tunnels (CONNECT: https, WebSockets, the harness's own `context.request`) open to the clones
 * and allowed hosts only; a WebSocket handshake in one is judged by its URL, since a Worker's
 * socket is seen by no page-level route. Only a refused WebSocket handshake and a blocklisted URL
 * are recorded as violations: the browser's own services (autofill queries to Google, say) also
 * come this way, encrypted, and nothing tells them from a page's `wss:` or `https:`, so those are
 * refused quietly, as offsite requests are.
 */
export class EgressGuard {
  private readonly sockets = new Set<Duplex>()
  /** Upstream connections to the clones, kept alive between the pages' requests. */
  private readonly upstream = new Agent({ keepAlive: true })

  private constructor(
    private readonly server: Server,
    private readonly policy: UrlPolicy,
    private readonly refused: (what: string) => void,
    /** Whether this proxy judges the clones' requests too (see above). */
    private readonly judges: boolean,
    private readonly host = '127.0.0.1',
  ) {
    server.on('connection', (socket: Socket) => this.track(socket))
    server.on('request', (req, res) => this.forward(req, res))
    server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => this.tunnel(req.url ?? '', client, head))
    // Browsers tunnel WebSockets with CONNECT; a plain Upgrade through a proxy is refused.
    server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
      const target = parseTarget(req.url ?? '')
      if (!target || !policy.mayConnect(target.host, target.port)) this.refused((req.url ?? '').replace(/^http/, 'ws'))
      socket.destroy()
    })
  }

  /** `host`: where it listens, the address its browser reaches it at (127.0.0.1 unless the browser is elsewhere). */
  static async start(policy: UrlPolicy, refused: (what: string) => void, options: { judges: boolean; host?: string }): Promise<EgressGuard> {
    const server = createServer()
    const host = options.host ?? '127.0.0.1'
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRNOTAVAIL' ? new Error(`browser.proxy_host: ${host} is not an address of this machine, so the egress proxy cannot listen there`) : error),
      )
      server.listen(0, host, () => resolve())
    })
    return new EgressGuard(server, policy, refused, options.judges, host)
  }

  /** The context's `proxy` option: everything but the allowed hosts comes here. */
  get proxy(): { server: string; bypass?: string } {
    const { port } = this.server.address() as AddressInfo
    const host = this.host.includes(':') ? `[${this.host}]` : this.host
    return { server: `http://${host}:${port}`, bypass: this.policy.allowHosts.join(',') || undefined }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    this.upstream.destroy()
    await new Promise((resolve) => this.server.close(resolve))
  }

  /**
   * A CONNECT. It is opened only to read what it is for: a WebSocket's handshake names its URL.
   * To a clone or an allowed host it then joins its target, unless the handshake is blocklisted
   * (a Worker's socket is seen by no page-level route); anywhere else it is dropped.
   */
  private tunnel(authority: string, client: Duplex, head: Buffer): void {
    this.track(client)
    client.on('error', () => client.destroy())
    const target = parseTarget(`http://${authority}`)
    const reachable = target !== null && this.policy.mayConnect(target.host, target.port)
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    this.firstBytes(client, head, (first) => {
      const socket = webSocketUrl(authority, first)
      if (reachable && !(socket && this.policy.classifySocket(socket) === 'blocked')) return this.open(target, client, first)
      if (socket) this.refused(socket)
      client.destroy()
    })
  }

  /** Joins an open tunnel to its target, starting with the bytes already read. */
  private open(target: { host: string; port: string }, client: Duplex, head: Buffer): void {
    const upstream = connect(Number(target.port), target.host.replace(/^\[|\]$/g, ''))
    this.track(upstream)
    upstream.on('error', () => client.destroy())
    upstream.on('connect', () => {
      upstream.write(head)
      client.pipe(upstream).pipe(client)
    })
  }

  /** Calls `judge` with the tunnel's first bytes, or drops a tunnel that sends none in time. */
  private firstBytes(client: Duplex, head: Buffer, judge: (first: Buffer) => void): void {
    if (head.length) return judge(head)
    const timer = setTimeout(() => client.destroy(), FIRST_BYTES_MS)
    client.once('data', (first: Buffer) => {
      clearTimeout(timer)
      client.pause()
      judge(first)
    })
  }

  /** A plain-http request through the proxy: its full URL is in the request line. */
  private forward(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? ''
    const target = parseTarget(url)
    const verdict = this.judges ? this.policy.classify(url) : target && this.policy.mayConnect(target.host, target.port) ? 'allow' : 'offsite'
    if (verdict === 'blocked') this.refused(url)
    if (verdict !== 'allow') {
      res.writeHead(403).end()
      return
    }
    const headers = { ...req.headers }
    for (const name of HOP_BY_HOP) delete headers[name]
    const upstream = request(url, { method: req.method, headers, agent: this.upstream }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket)
    socket.once('close', () => this.sockets.delete(socket))
  }
}

function parseTarget(url: string): { host: string; port: string } | null {
  try {
    const parsed = new URL(url)
    return { host: parsed.hostname, port: parsed.port || (parsed.protocol === 'https:' ? '443' : '80') }
  } catch {
    return null
  }
}

/** `ws://host:port/path` when a tunnel's first bytes are a WebSocket handshake, else null. */
function webSocketUrl(authority: string, first: Buffer): string | null {
  const text = first.subarray(0, 4096).toString('latin1')
  const line = /^GET (\S+) HTTP\/1\.1\r\n/.exec(text)
  return line && /^upgrade:\s*websocket\s*$/im.test(text) ? `ws://${authority}${line[1]}` : null
}
