import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DockerProvision } from '../src/docker/images.ts'
import type { EnvironmentStatus } from '../src/schema/environment.ts'

/** What the run's main process starts for its workers, each on first request. */
export interface RunServices {
  environment(name: string): Promise<EnvironmentStatus>
  /** The browser server's endpoint; throws when it cannot start. */
  browser(): Promise<string>
  /** Makes sure the run's containers are removed even if the run is killed; asked before a worker's first container. */
  watchContainers(): void
  /** Whether desktop tasks can run, and their images: the engine is checked and the images built on the first ask. */
  docker(): Promise<DockerProvision>
}

export interface ServicesServer {
  /** The base URL workers ask (loopback, with a secret path: only this run's workers know it). */
  url: string
  close(): Promise<void>
}

/**
 * Serves the run's services to its workers over loopback HTTP: Vitest gives workers values from
 * global setup, but no way to ask the main process for something later. A run of Omnizon tasks
 * never starts the inbox app, a run of desktop tasks never starts a browser, and a run without
 * containers never starts a reaper nor loads Docker's client.
 */
export async function serveRunServices(services: RunServices): Promise<ServicesServer> {
  const secret = randomBytes(16).toString('hex')
  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    const path = (request.url ?? '').split('/').map(decodeURIComponent)
    if (request.method !== 'GET' || path[1] !== secret) return answer(404, { error: 'not found' })
    if (path[2] === 'environments' && path[3] && path.length === 4) {
      return void services.environment(path[3]).then((status) => answer(200, status))
    }
    if (path[2] === 'browser' && path.length === 3) {
      return void services.browser().then(
        (endpoint) => answer(200, { endpoint }),
        (error: unknown) => answer(200, { error: error instanceof Error ? error.message : String(error) }),
      )
    }
    if (path[2] === 'docker' && path.length === 3) {
      // Building an image can outlast an HTTP client's patience for a silent answer: the headers go
      // at once, and a space every 30 s until the JSON (which leading spaces do not change).
      response.writeHead(200, { 'content-type': 'application/json' })
      const beat = setInterval(() => response.write(' '), 30_000)
      const end = (body: unknown) => (clearInterval(beat), response.end(JSON.stringify(body)))
      return void services.docker().then(end, (error: unknown) => end({ available: false, reason: error instanceof Error ? error.message : String(error) }))
    }
    if (path[2] === 'containers' && path.length === 3) {
      services.watchContainers()
      return answer(200, { watched: true })
    }
    return answer(404, { error: 'not found' })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  // Workers keep no connection open between asks; a closed run must not wait on one.
  server.keepAliveTimeout = 1_000
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/${secret}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
