import { connect, createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'

/** A TCP front for the local engine's socket, as a remote engine looks: every request line it carried is kept. */
export interface EngineProxy {
  dockerHost: string
  requests: string[]
  close(): Promise<void>
}

const REQUEST_LINE = /(GET|HEAD|POST|PUT|DELETE) (\/\S+) HTTP\/1\.[01]\r\n/g

/** Joins a client's connection to the engine's socket, noting each request line it sends. */
export function pipeToEngine(client: Duplex, socketPath: string, requests: string[]): void {
  const engine = connect(socketPath)
  client.on('data', (chunk: Buffer) => {
    for (const match of chunk.toString('latin1').matchAll(REQUEST_LINE)) requests.push(`${match[1]} ${match[2]}`)
  })
  client.pipe(engine).pipe(client)
  const end = () => {
    client.destroy()
    engine.destroy()
  }
  client.on('error', end).on('close', end)
  engine.on('error', end).on('close', end)
}

export async function startEngineProxy(socketPath = '/var/run/docker.sock'): Promise<EngineProxy> {
  const requests: string[] = []
  const server: Server = createServer((client) => pipeToEngine(client, socketPath, requests))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    dockerHost: `tcp://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
