import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { UrlPolicy } from './url-policy.ts'

/** How long a refused tunnel may take to say what it was for before it is dropped unrecorded. */
const FIRST_BYTES_MS = 5_000

/**
 * The browser context's proxy, under the page-level policy (request routing, the WebSocket
 * route). Those act inside pages, and a page can reach the network from where they do not look:
 * a WebSocket opened in a Worker is neither routed nor seen by `routeWebSocket`. Connections to
 * the clones and the allowed hosts bypass this proxy; every other one lands here and is refused.
 *
 * Only a refused WebSocket handshake is recorded as a violation: the browser's own services
 * (autofill queries to Google, say) also come this way, encrypted, and nothing tells them from a
 * page's `wss:` or `https:`, so those are refused quietly, as offsite requests are.
 * Harness-side requests through the context (`context.request` tunnels to the clones) pass.
 */
export class EgressGuard {
  private readonly sockets = new Set<Duplex>()

  private constructor(
    private readonly server: Server,
    private readonly policy: UrlPolicy,
    private readonly refused: (what: string) => void,
  ) {
    server.on('connection', (socket: Socket) => this.track(socket))
    server.on('request', (req, res) => {
      const target = parseTarget(req.url ?? '')
      if (!target || !policy.mayConnect(target.host, target.port)) return res.writeHead(403).end()
      const upstream = forward(req.url!, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.on('error', () => res.destroy())
      req.pipe(upstream)
    })
    server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => this.tunnel(req.url ?? '', client, head))
    // Browsers tunnel WebSockets with CONNECT; a plain Upgrade through a proxy is refused.
    server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
      const target = parseTarget(req.url ?? '')
      if (!target || !policy.mayConnect(target.host, target.port)) this.refused((req.url ?? '').replace(/^http/, 'ws'))
      socket.destroy()
    })
  }

  static async start(policy: UrlPolicy, refused: (what: string) => void): Promise<EgressGuard> {
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    return new EgressGuard(server, policy, refused)
  }

  /** The context's `proxy` option: this guard, bypassed for the clones and the allowed hosts. */
  get proxy(): { server: string; bypass: string } {
    const { port } = this.server.address() as AddressInfo
    return { server: `http://127.0.0.1:${port}`, bypass: [...this.policy.endpoints, ...this.policy.allowHosts].join(',') }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise((resolve) => this.server.close(resolve))
  }

  private tunnel(authority: string, client: Duplex, head: Buffer): void {
    this.track(client)
    client.on('error', () => client.destroy())
    const target = parseTarget(`http://${authority}`)
    if (target && this.policy.mayConnect(target.host, target.port)) {
      const upstream = connect(Number(target.port), target.host.replace(/^\[|\]$/g, ''))
      this.track(upstream)
      upstream.on('error', () => client.destroy())
      upstream.on('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head.length) upstream.write(head)
        client.pipe(upstream).pipe(client)
      })
      return
    }
    // Open the tunnel only to read what it was for (a WebSocket's request line names its path).
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    const timer = setTimeout(() => client.destroy(), FIRST_BYTES_MS)
    const judge = (first: Buffer) => {
      clearTimeout(timer)
      const socket = webSocketUrl(authority, first)
      if (socket) this.refused(socket)
      client.destroy()
    }
    if (head.length) judge(head)
    else client.once('data', judge)
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
