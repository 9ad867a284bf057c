import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import type { Hono } from 'hono'

export interface Listening {
  /** e.g. "http://127.0.0.1:41234" */
  url: string
  port: number
  /** Stops listening and drops open (keep-alive) connections, so the port is free when it resolves. */
  close(): Promise<void>
}

export interface ListenOptions {
  /** Default 0: a free port chosen by the system. */
  port?: number
  /** Default "127.0.0.1". */
  host?: string
}

/** Serves a Hono app over HTTP; resolves once it listens, rejects if it cannot (port taken). */
export async function listen(app: Hono, opts: ListenOptions = {}): Promise<Listening> {
  const host = opts.host ?? '127.0.0.1'
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err)
    server.once('error', onError)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const urlHost = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close() {
      // Idempotent: a second close() waits for the first instead of failing "not running".
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      })
      return closing
    },
  }
}
