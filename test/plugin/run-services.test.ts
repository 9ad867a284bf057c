import { afterEach, describe, expect, test } from 'vitest'
import { serveRunServices, type ServicesServer } from '../../plugin/run-services.ts'
import { RunServicesClient } from '../../src/task/run-services-client.ts'

let server: ServicesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

describe("the run's services: environments and the browser, started when a worker first asks", () => {
  test('a worker gets an environment\'s status and the browser endpoint over loopback HTTP', async () => {
    const asked: string[] = []
    server = await serveRunServices({
      environment: async (name) => (asked.push(name), name === 'shop' ? { url: 'http://127.0.0.1:1234' } : { error: `${name} did not start` }),
      browser: async () => 'ws://127.0.0.1:5678/abc',
      watchContainers: () => void asked.push('containers'),
      docker: async () => (asked.push('docker'), { available: true, images: { 'agentest/desktop': 'agentest/desktop:abc123' } }),
    })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/)
    const client = new RunServicesClient(server.url)
    expect(await client.environment('shop')).toEqual({ url: 'http://127.0.0.1:1234' })
    expect(await client.environment('mail box')).toEqual({ error: 'mail box did not start' })
    expect(asked).toEqual(['shop', 'mail box'])
    expect(await client.browser()).toBe('ws://127.0.0.1:5678/abc')
    // A worker asks once before its first container, however many tasks it runs.
    await Promise.all([client.watchContainers(), client.watchContainers()])
    await client.watchContainers()
    expect(asked).toEqual(['shop', 'mail box', 'containers'])
    expect(await client.docker()).toEqual({ available: true, images: { 'agentest/desktop': 'agentest/desktop:abc123' } })
  })

  test("Docker prepared slowly (an image building) still answers, and a preparation that throws is Docker unavailable, with why", async () => {
    let calls = 0
    server = await serveRunServices({
      environment: async () => ({ url: 'http://127.0.0.1:1' }),
      browser: async () => 'ws://127.0.0.1:1/x',
      watchContainers: () => {},
      docker: async () => {
        calls++
        if (calls === 2) throw new Error('the engine went away')
        await new Promise((resolve) => setTimeout(resolve, 300))
        return { available: false, reason: 'no Docker engine at unix:///nowhere' }
      },
    })
    const client = new RunServicesClient(server.url)
    expect(await client.docker()).toEqual({ available: false, reason: 'no Docker engine at unix:///nowhere' })
    expect(await client.docker()).toEqual({ available: false, reason: 'the engine went away' })
  })

  test('a browser that cannot start is an error naming why; nothing answers without the secret path', async () => {
    server = await serveRunServices({
      environment: async () => ({ url: 'http://127.0.0.1:1' }),
      browser: async () => {
        throw new Error('chromium exited with code 1')
      },
      watchContainers: () => {},
      docker: async () => ({ available: false, reason: 'not asked' }),
    })
    await expect(new RunServicesClient(server.url).browser()).rejects.toThrow("the run's browser did not start: chromium exited with code 1")
    const base = server.url.replace(/\/[0-9a-f]{32}$/, '')
    expect((await fetch(`${base}/environments/shop`)).status).toBe(404)
    expect((await fetch(`${base}/${'0'.repeat(32)}/browser`)).status).toBe(404)
    await expect(new RunServicesClient(`${base}/wrong`).environment('shop')).rejects.toThrow("the run's services answered 404 for environments/shop")
  })
})
