import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../e2e/run-benchmark.ts'
import { inFreshNode } from '../support/fresh-node.ts'
import { noDocker } from './docker-available.ts'

const SHIM = join(ROOT, 'src/docker/dockerode.cjs')

/** Runs `body` with dockerode loaded through its shim in a fresh Node (a framework worker may have loaded it whole). */
function withShim(body: string): Record<string, unknown> {
  const script = `
    import { createRequire } from 'node:module'
    const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))})
    const { loadDockerode } = require(${JSON.stringify(SHIM)})
    const fromDockerode = createRequire(require.resolve('dockerode'))
    const loadedFrom = (pkg) => Object.keys(require.cache).filter((p) => p.includes('/node_modules/' + pkg + '/') && require.cache[p].loaded).length
    const out = {}
    ${body}
    console.log(JSON.stringify(out))
  `
  return JSON.parse(inFreshNode(script)) as Record<string, unknown>
}

describe("dockerode without its ssh and gRPC parts up front", () => {
  test('loading it leaves ssh2 and gRPC unread; an ssh:// engine and gRPC still load them when used', () => {
    const out = withShim(`
      const Docker = loadDockerode()
      out.ssh2AtLoad = loadedFrom('ssh2')
      out.grpcAtLoad = loadedFrom('@grpc/grpc-js') + loadedFrom('@grpc/proto-loader')
      // An ssh:// engine on a closed port: the connection is refused by ssh2's real client.
      out.sshError = await new Docker({ protocol: 'ssh', host: '127.0.0.1', port: 1, username: 'nobody' }).ping().then(() => 'none', (e) => e.code ?? e.message)
      out.ssh2AfterUse = loadedFrom('ssh2')
      out.grpcServer = typeof fromDockerode('@grpc/grpc-js').Server
      out.protoLoadSync = typeof fromDockerode('@grpc/proto-loader').loadSync
      out.sameDockerode = loadDockerode() === Docker
    `)
    // At load, each of the three is only its stand-in: one module, none of the package's own files.
    expect(out).toMatchObject({ ssh2AtLoad: 1, grpcAtLoad: 2, sshError: 'ECONNREFUSED', grpcServer: 'function', protoLoadSync: 'function', sameDockerode: true })
    expect(out.ssh2AfterUse).toBeGreaterThan(5)
  })

  test.skipIf(noDocker)('the engine answers through it', () => {
    const out = withShim(`
      const docker = new (loadDockerode())()
      out.ping = String(await docker.ping())
      out.listed = Array.isArray(await docker.listContainers({ all: true }))
    `)
    expect(out).toEqual({ ping: 'OK', listed: true })
  })
})
