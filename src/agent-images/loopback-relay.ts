import { connect, createServer, type Server, type Socket } from 'node:net'

/** Hosts that mean "this machine" in a model URL. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '[::1]', '::1'])

/** One relay per gateway and target, for the life of the process. */
const relays = new Map<string, Promise<number | null>>()

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname)
}

/**
 * The model URL as a packaged agent's container must use it. A server on this machine's
 * loopback (Ollama's default, the scripted server's) cannot be reached from a container: the
 * harness relays it, listening on the Docker bridge's gateway (where `host.docker.internal`
 * points) and forwarding each connection to the loopback address. Without a gateway on this
 * machine (a remote engine) the URL is only renamed to `host.docker.internal`.
 */
export async function modelUrlForContainer(url: string, gateway: string | null): Promise<string> {
  const parsed = new URL(url)
  if (!isLoopback(parsed.hostname)) return url
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80))
  const target = parsed.hostname === '0.0.0.0' ? '127.0.0.1' : parsed.hostname.replace(/^\[(.*)\]$/, '$1')
  const relayed = gateway ? await relayPort(gateway, target, port) : null
  parsed.hostname = 'host.docker.internal'
  if (relayed) parsed.port = String(relayed)
  return parsed.href.replace(/\/$/, url.endsWith('/') ? '/' : '')
}

/** The port of a relay on `gateway` to `target:port`, started on first use; null if it cannot listen there. */
export function relayPort(gateway: string, target: string, port: number): Promise<number | null> {
  const key = `${gateway}>${target}:${port}`
  let relay = relays.get(key)
  if (!relay) {
    relay = listen(gateway, target, port)
    relays.set(key, relay)
  }
  return relay
}

function listen(gateway: string, target: string, port: number): Promise<number | null> {
  const server: Server = createServer((incoming) => pipeTo(incoming, target, port))
  return new Promise((resolve) => {
    // The gateway is not an address of this machine when the engine is remote.
    server.once('error', () => resolve(null))
    server.listen(0, gateway, () => {
      // The relay never keeps a finished run's process alive.
      server.unref()
      const address = server.address()
      resolve(typeof address === 'object' && address ? address.port : null)
    })
  })
}

/** Joins one container connection to the loopback server; either side closing closes both. */
function pipeTo(incoming: Socket, target: string, port: number): void {
  const outgoing = connect(port, target)
  const close = () => {
    incoming.destroy()
    outgoing.destroy()
  }
  incoming.on('error', close).on('close', close)
  outgoing.on('error', close).on('close', close)
  incoming.pipe(outgoing).pipe(incoming)
}
