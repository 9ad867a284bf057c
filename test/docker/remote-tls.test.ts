import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import Docker from 'dockerode'
import { LABEL } from '../../src/docker/labels.ts'
import { runBenchmark } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'
import { startTlsEngine, type TlsEngine } from './engine-tls.ts'

/**
 * Desktops elsewhere: a desktop task on an engine reached over TCP with TLS, as a remote engine
 * is (DOCKER_HOST=tcp://..., DOCKER_TLS_VERIFY=1, DOCKER_CERT_PATH), through a TLS front this
 * test puts before the local engine. Everything (the images, the container, the command
 * channel, the checks, the cleanup) goes through it, and nothing of the run is left there.
 */
let engine: TlsEngine | null = null

describe.skipIf(noDocker)('a desktop task on an engine over TCP with TLS', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    engine = await startTlsEngine()
  })
  afterAll(async () => {
    await engine?.close()
  })

  test('passes under the oracle, every call through the TLS endpoint, and leaves nothing behind', async () => {
    const name = `desktop-tls-${process.pid}`
    const run = await runBenchmark(['tasks/desktop/terminal-hello.task.ts'], {
      AGENTEST_AGENT: 'oracle',
      AGENTEST_RUN_NAME: name,
      DOCKER_HOST: engine!.dockerHost,
      DOCKER_TLS_VERIFY: '1',
      DOCKER_CERT_PATH: engine!.certPath,
    })
    expect(run.code, run.stderr + run.stdout.slice(-4000)).toBe(0)
    expect(run.results.map((r) => [r.id, r.status])).toEqual([['desktop-terminal-hello', 'passed']])
    const calls = engine!.requests.map((line) => line.replace(/^(\w+) \/v[\d.]+/, '$1 ').replace(/\?.*$/, ''))
    expect(calls).toContain('POST /containers/create')
    expect(calls.some((call) => /^POST \/containers\/\w+\/exec$/.test(call))).toBe(true)
    expect(calls.some((call) => /^DELETE \/containers\/\w+$/.test(call))).toBe(true)
    const left = await docker.listContainers({ all: true, filters: { label: [`${LABEL.run}`] } })
    expect(left.filter((c) => c.Labels[LABEL.run]?.startsWith(name))).toEqual([])
  })

  test('a client without a certificate signed by the CA is refused: the endpoint is TLS-verified, as the test claims', async () => {
    const before = engine!.refused
    const port = Number(new URL(engine!.dockerHost.replace('tcp:', 'https:')).port)
    // It trusts the server, but has no client certificate of its own.
    const stranger = new Docker({ host: '127.0.0.1', port, protocol: 'https', ca: readFileSync(join(engine!.certPath, 'ca.pem')) })
    await expect(stranger.ping()).rejects.toThrow()
    expect(engine!.refused).toBeGreaterThan(before)
  })
})
