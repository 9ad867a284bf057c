import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { UrlPolicy } from '../../urls/url-policy.ts'
import { messageText, websockets, type WebSocketLike, type WebSocketServerLike } from './websocket.ts'

/** CDP messages carry screenshots and DOM snapshots: Playwright's own limit for its connection. */
const MAX_MESSAGE = 256 * 1024 * 1024

/** A command an agent sends over CDP (the parts the gateway reads). */
export interface CdpCommand {
  id?: unknown
  method?: unknown
  params?: unknown
  sessionId?: unknown
}

/**
 * What becomes of one command: sent on to the browser; answered by the gateway itself (the browser
 * never sees it); or refused with a CDP error. `violation` is recorded as the task's violation
 * (a blocked_url ending), whatever became of the command.
 */
export type CdpVerdict =
  | { action: 'forward'; violation?: string }
  | { action: 'answer'; result: Record<string, unknown>; thenClose?: boolean; violation?: string }
  | { action: 'refuse'; message: string; violation?: string }

/** Methods no agent may call: they break the sandbox or the harness's view of it. */
const REFUSED_METHODS: Record<string, string> = {
  // A crashed browser would end the task as the machine's fault, out of every rate.
  'Browser.crash': 'the browser is the harness\'s, and stays up',
  'Browser.crashGpuProcess': 'the browser is the harness\'s, and stays up',
  // A page given the browser's own DevTools would speak CDP past this gateway.
  'Target.exposeDevToolsProtocol': 'pages get no DevTools channel of their own',
}

/** Whole domains no agent may use: ports of this machine (Tethering), extensions and installed apps from its files. */
const REFUSED_DOMAINS: Record<string, string> = {
  Tethering: 'no port of this machine is bound for an agent',
  Extensions: 'no extension is loaded from this machine\'s files',
  PWA: 'no web app is installed or launched with this machine\'s files',
}

/**
 * Judges one command an agent sends over CDP. Everything CDP offers a framework passes, but what
 * would take the browser out of the sandbox or out of the harness's sight:
 * - `Browser.close` is answered as done and that connection closed (a framework's ordinary
 *   `browser.close()` ends its session, not the harness's browser);
 * - a context with a proxy of its own (it would leave the task's egress proxy), crashing the
 *   browser, DevTools for pages, tethering, extensions and installed apps are refused and recorded;
 * - a navigation it asks for (`Page.navigate`, `Target.createTarget`) is judged as the sandbox
 *   judges a `goto`: a page that is not a web page (data:, file:, javascript:, chrome:) is refused,
 *   and one to a blocklisted URL or another host is recorded and sent on, for the egress proxy to
 *   refuse as it refuses any request of the browser's.
 */
export function judgeCommand(command: CdpCommand, policy: UrlPolicy): CdpVerdict {
  const { method } = command
  if (typeof method !== 'string') return { action: 'refuse', message: 'not a CDP command: no method' }
  const params = (typeof command.params === 'object' && command.params !== null ? command.params : {}) as Record<string, unknown>
  if (method === 'Browser.close') return { action: 'answer', result: {}, thenClose: true }
  const why = REFUSED_METHODS[method] ?? REFUSED_DOMAINS[method.split('.')[0]!]
  if (why) return { action: 'refuse', message: `refused by the agentest sandbox: ${method} (${why})`, violation: `devtools: ${method}` }
  if (method === 'Target.createBrowserContext' && (params.proxyServer !== undefined || params.proxyBypassList !== undefined)) {
    const proxy = String(params.proxyServer ?? params.proxyBypassList)
    return {
      action: 'refuse',
      message: 'refused by the agentest sandbox: a browser context with a proxy of its own would leave the task\'s egress proxy',
      violation: `devtools: Target.createBrowserContext with the proxy ${proxy.slice(0, 100)}`,
    }
  }
  if ((method === 'Page.navigate' || method === 'Target.createTarget') && typeof params.url === 'string' && params.url !== '') {
    const url = params.url
    const verdict = policy.classifyNavigation(url)
    if (verdict === 'allow') return { action: 'forward' }
    if (!/^https?:/i.test(url.trim())) return { action: 'refuse', message: `refused by the agentest sandbox: ${shorten(url)} is not a page of this task`, violation: url }
    return { action: 'forward', violation: url }
  }
  return { action: 'forward' }
}

export interface CdpGatewayOptions {
  /** The browser's own DevTools endpoint (ws://127.0.0.1:<port>/devtools/browser/<id>). */
  upstream: string
  policy: UrlPolicy
  /** Records a violation (the task ends as blocked_url). */
  record: (what: string) => void
  /** Told each time an agent connects or disconnects, with how many connections are open. */
  onConnections?: (open: number) => void
}

/**
 * One task's CDP endpoint for an agent: a WebSocket on 127.0.0.1 at a path no one can guess
 * (`ws://127.0.0.1:<port>/devtools/browser/<uuid>`), relaying each connection to the task's
 * browser over a connection of its own and judging every command on the way (`judgeCommand`).
 * Events and answers come back untouched. It takes connections only between `open()` (the agent's
 * turn starts) and `cutOff()` (its turn ends, or its budget is spent); `close()` frees the port.
 * Plain HTTP (the /json discovery endpoints) is not served: agents are given the WebSocket URL.
 */
export class CdpGateway {
  private readonly agents = new Set<WebSocketLike>()
  private readonly sockets = new Set<Duplex>()
  private accepting = false
  private closed = false
  private cutReason: string | null = null

  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServerLike,
    private readonly token: string,
    private readonly options: CdpGatewayOptions,
  ) {
    server.on('connection', (socket: Socket) => this.track(socket))
    server.on('request', (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('agentest: this CDP endpoint speaks WebSocket only; connect to the URL you were given\n'))
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head))
  }

  static async start(options: CdpGatewayOptions): Promise<CdpGateway> {
    const { wsServer } = websockets()
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    const wss = new wsServer({ noServer: true, maxPayload: MAX_MESSAGE, perMessageDeflate: false })
    return new CdpGateway(server, wss, randomUUID(), options)
  }

  /** The endpoint handed to the agent. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo
    return `ws://127.0.0.1:${port}/devtools/browser/${this.token}`
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  /** How many agent connections are open now (one the agent has begun to close is not). */
  get connections(): number {
    const { OPEN } = websockets().ws
    let open = 0
    for (const agent of this.agents) if (agent.readyState === OPEN) open++
    return open
  }

  /** From now on, agents may connect. */
  open(): void {
    if (!this.cutReason && !this.closed) this.accepting = true
  }

  /** Closes every agent connection (with `reason` as the close reason) and takes no new one. */
  cutOff(reason: string): void {
    this.cutReason ??= reason
    this.accepting = false
    for (const agent of this.agents) agent.close(1008, reason.slice(0, 120))
    // A client that does not answer the close handshake is dropped.
    setTimeout(() => {
      for (const agent of this.agents) agent.terminate()
    }, 1_000).unref()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.accepting = false
    for (const agent of this.agents) agent.terminate()
    this.wss.close()
    for (const socket of this.sockets) socket.destroy()
    await new Promise((resolve) => this.server.close(resolve))
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refuse = (status: number, why: string) => {
      socket.end(`HTTP/1.1 ${status} ${why}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
    }
    if (req.url !== `/devtools/browser/${this.token}`) return refuse(404, 'Not Found')
    // As Chromium's own endpoint: a web page (it sends an Origin) or a rebound DNS name is no CDP client.
    if (req.headers.origin !== undefined) return refuse(403, 'Forbidden')
    if (!/^(127\.0\.0\.1|localhost)(:\d+)?$/i.test(req.headers.host ?? '')) return refuse(403, 'Forbidden')
    if (!this.accepting) return refuse(503, this.cutReason ? 'Turn Over' : 'Not Yet')
    this.wss.handleUpgrade(req, socket, head, (agent) => this.relay(agent))
  }

  /** One agent connection, relayed to the browser over a connection of its own. */
  private relay(agent: WebSocketLike): void {
    const { ws } = websockets()
    this.agents.add(agent)
    this.options.onConnections?.(this.agents.size)
    const upstream = new ws(this.options.upstream, { maxPayload: MAX_MESSAGE, perMessageDeflate: false })
    const pending: string[] = []
    const toBrowser = (text: string) => (upstream.readyState === ws.OPEN ? upstream.send(text) : pending.push(text))
    const reply = (command: CdpCommand, body: Record<string, unknown>) => {
      if (agent.readyState !== ws.OPEN) return
      agent.send(JSON.stringify({ id: command.id, ...(command.sessionId !== undefined ? { sessionId: command.sessionId } : {}), ...body }))
    }
    agent.on('message', (data) => {
      const text = messageText(data)
      let command: CdpCommand
      try {
        command = JSON.parse(text) as CdpCommand
      } catch {
        agent.close(1003, 'CDP messages are JSON')
        return
      }
      const verdict = judgeCommand(command, this.options.policy)
      if (verdict.violation) this.options.record(verdict.violation)
      if (verdict.action === 'forward') return toBrowser(text)
      if (verdict.action === 'refuse') return reply(command, { error: { code: -32000, message: verdict.message } })
      reply(command, { result: verdict.result })
      if (verdict.thenClose) setImmediate(() => agent.close(1000, 'closed'))
    })
    upstream.on('open', () => {
      for (const text of pending.splice(0)) upstream.send(text)
    })
    upstream.on('message', (data, isBinary) => {
      if (agent.readyState === ws.OPEN) agent.send(data as Buffer, { binary: isBinary })
    })
    const closeBoth = () => {
      if (this.agents.delete(agent)) this.options.onConnections?.(this.agents.size)
      if (agent.readyState === ws.OPEN) agent.close(1000, 'the browser connection closed')
      if (upstream.readyState === ws.OPEN) upstream.close()
      else if (upstream.readyState !== ws.CLOSED) upstream.terminate()
    }
    agent.on('close', closeBoth)
    upstream.on('close', closeBoth)
    agent.on('error', () => agent.terminate())
    upstream.on('error', () => upstream.terminate())
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket)
    socket.once('close', () => this.sockets.delete(socket))
  }
}

function shorten(url: string): string {
  return url.length > 100 ? `${url.slice(0, 100)}…` : url
}
