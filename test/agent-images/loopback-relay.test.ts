import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isLoopback, modelUrlForContainer } from '../../src/agent-images/loopback-relay.ts'

/**
 * The relay over real TCP. Here it listens on 127.0.0.1 as the "gateway" (a benchmark run uses
 * the Docker bridge's); test/e2e/agent-image.test.ts has packaged agents reach a loopback-only
 * model server through it from their containers.
 */
describe('the loopback relay for packaged agents', () => {
  let server: Server
  let port = 0

  beforeAll(async () => {
    server = createServer((request, response) => response.end(`model saw ${request.method} ${request.url}`))
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
    port = (server.address() as { port: number }).port
  })

  afterAll(() => new Promise<void>((done) => server.close(() => done())))

  test('a loopback URL becomes host.docker.internal on the relay\'s port, and requests reach the server', async () => {
    const url = await modelUrlForContainer(`http://127.0.0.1:${port}/v1`, '127.0.0.1')
    const relayed = new URL(url)
    expect(relayed.hostname).toBe('host.docker.internal')
    expect(relayed.pathname).toBe('/v1')
    expect(Number(relayed.port)).not.toBe(port)
    // From here the relay is reached where the gateway is: 127.0.0.1 in this test.
    const answer = await fetch(`http://127.0.0.1:${relayed.port}/v1/chat/completions`, { method: 'POST', body: '{}' })
    expect(await answer.text()).toBe('model saw POST /v1/chat/completions')
    // One relay per target: asking again gives the same port; another loopback name is another target.
    expect(await modelUrlForContainer(`http://127.0.0.1:${port}/v1/`, '127.0.0.1')).toBe(`${url}/`)
    expect(await modelUrlForContainer(`http://localhost:${port}/v1`, '127.0.0.1')).not.toBe(url)
  })

  test('a server that is down closes the container\'s connection instead of hanging it', async () => {
    const closed = createServer()
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready))
    const deadPort = (closed.address() as { port: number }).port
    await new Promise<void>((done) => closed.close(() => done()))
    const url = new URL(await modelUrlForContainer(`http://127.0.0.1:${deadPort}/v1`, '127.0.0.1'))
    await expect(fetch(`http://127.0.0.1:${url.port}/v1`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow('fetch failed')
  })

  test('other hosts pass untouched; without a local gateway a loopback URL is only renamed', async () => {
    expect(await modelUrlForContainer('https://api.openai.com/v1', '127.0.0.1')).toBe('https://api.openai.com/v1')
    expect(await modelUrlForContainer('http://host.docker.internal:8787/v1', '127.0.0.1')).toBe('http://host.docker.internal:8787/v1')
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: a remote engine's gateway.
    expect(await modelUrlForContainer('http://127.0.0.1:11434/v1', '192.0.2.1')).toBe('http://host.docker.internal:11434/v1')
    expect(await modelUrlForContainer('http://0.0.0.0:11434/v1', null)).toBe('http://host.docker.internal:11434/v1')
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '[::1]', '0.0.0.0'].every(isLoopback)).toBe(true)
    expect(['10.0.0.1', 'host.docker.internal', 'example.com'].some(isLoopback)).toBe(false)
  })
})
