import { createRequire } from 'node:module'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { withPlaywrightCodeCache } from './code-cache.ts'

const require = createRequire(import.meta.url)

/** The parts of the `ws` library's WebSocket that the CDP gateway uses. */
export interface WebSocketLike {
  readonly readyState: number
  on(event: 'open', listener: () => void): this
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): this
  on(event: 'close', listener: (code: number, reason: Buffer) => void): this
  on(event: 'error', listener: (error: Error) => void): this
  send(data: string | Buffer, options?: { binary?: boolean }): void
  close(code?: number, reason?: string): void
  terminate(): void
}

export interface WebSocketServerLike {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, done: (socket: WebSocketLike) => void): void
  close(): void
}

interface WsBundle {
  ws: (new (url: string, options: Record<string, unknown>) => WebSocketLike) & { OPEN: number; CLOSED: number }
  wsServer: new (options: Record<string, unknown>) => WebSocketServerLike
}

/**
 * The `ws` library that Playwright bundles (playwright-core/lib/utilsBundle, an entry of its
 * package exports; Playwright is pinned to one version), so the gateway needs no dependency of its
 * own. Loaded on first use, from V8's code cache like the rest of Playwright.
 */
export function websockets(): WsBundle {
  return withPlaywrightCodeCache(() => require('playwright-core/lib/utilsBundle') as WsBundle)
}

/** A WebSocket message as text (CDP speaks JSON in text frames). */
export function messageText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}
