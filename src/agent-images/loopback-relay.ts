import { connect, createServer, type Server, type Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import { allowHostPort } from '../docker/agent-network.ts'

/** Hosts that mean "this machine" in a model URL. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '[::1]', '::1'])

/** One relay per gateway and target, for the life of the process. */
const relays = new Map<string, Promise<number | null>>()

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname)
}

/** Whether the host names an address of this machine's own interfaces (its LAN address, docker0's). */
function isThisMachine(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  return Object.values(networkInterfaces()).some((addresses) => addresses?.some((a) => a.address === bare))
}

/**
 * The model URL as a packaged agent's container must use it. A server on this machine's
 * loopback (Ollama's default, the scripted server's) cannot be reached from a container: the
 * harness relays it, listening on the Docker bridge's gateway (where `host.docker.internal`
 * points) and forwarding each connection to the loopback address. A server at another address
 * of this machine is relayed too: the run's network lets containers reach this machine at the
 * relays' ports only (src/docker/agent-network.ts), and the relay's port is opened to it here.
 * Without a gateway on this machine (a remote engine) the URL is only renamed to `host.docker.internal`.
 */
export async function modelUrlForContainer(url: string, gateway: string | null): Promise<string> {
  const parsed = new URL(url)
  const loopback = isLoopback(parsed.hostname)
  if (!loopback && !isThisMachine(parsed.hostname)) return url
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80))
  const target = parsed.hostname === '0.0.0.0' ? '127.0.0.1' : parsed.hostname.replace(/^\[(.*)\]$/, '$1')
  const relayed = gateway ? await relayPort(gateway, target, port) : null
  if (relayed) await allowHostPort(gateway!, relayed)
  // Another address of this machine stays as it is without a relay.
  if (!loopback && !relayed) return url
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
