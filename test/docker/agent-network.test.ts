import { execFileSync } from 'node:child_process'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { connect, createServer, type Server } from 'node:net'
import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureAgentImage } from '../../src/agent-images/build.ts'
import { AgentServerClient } from '../../src/agent-images/client.ts'
import { AgentImageRegistry } from '../../src/agent-images/registry.ts'
import { agentPort } from '../../src/schema/agent-image.ts'
import { runNetwork } from '../../src/docker/agent-network.ts'
import { containerLabels, ensureImage, execIn, imageDir, LABEL, removeRunContainers } from '../../src/docker/index.ts'
import { loadConfig } from '../../src/config/index.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'

/**
 * Packaged agents on the run's own network (src/docker/agent-network.ts), on a real engine: two
 * agents at once reach neither each other nor any port of this machine but the model relay's.
 * Two containers on Docker's default bridge (how agents ran before) reach both, which is what
 * makes the refusals here mean something.
 */
const RUN = `agent-network-test-${process.pid}`
const registry = AgentImageRegistry.load(['fixtures/agents'], ROOT, loadConfig(ROOT, {}).agentImages.policy)
const minimalPython = registry.resolve('minimal-python')
const PORT = agentPort(minimalPython.spec)

/** Tries a TCP connection to each host:port from inside the container, as the agent's user. */
const PROBE = `
import json, socket, sys
out = {}
for target in sys.argv[1:]:
    host, port = target.rsplit(':', 1)
    s = socket.socket()
    s.settimeout(1)
    try:
        s.connect((host, int(port)))
        out[target] = 'open'
    except ConnectionRefusedError:
        out[target] = 'refused'
    except socket.timeout:
        out[target] = 'timeout'
    except OSError as e:
        out[target] = 'unreachable (%s)' % e
    finally:
        s.close()
print(json.dumps(out))
`

type Probe = (targets: string[]) => Promise<Record<string, string>>

function probeIn(exec: (command: string[]) => Promise<{ stdout: Buffer; stderr: Buffer }>): Probe {
  return async (targets) => {
    const result = await exec(['python3', '-c', PROBE, ...targets])
    return JSON.parse(result.stdout.toString()) as Record<string, string>
  }
}

/** This machine's IPv4 addresses but loopback: the gateway of every bridge, the LAN's. */
function hostAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => a.address))
}

async function ipOf(container: { inspect(): Promise<{ NetworkSettings: { Networks?: Record<string, { IPAddress: string }> } }> }): Promise<string> {
  const networks = Object.values((await container.inspect()).NetworkSettings.Networks ?? {})
  return networks[0]!.IPAddress
}

/** The first line a TCP server sends, from this machine. */
function readLine(host: string, port: number): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, host)
    socket.once('data', (data) => done(data.toString().trim())).once('error', fail)
  })
}

function listen<T extends Server | HttpServer>(server: T, host: string): Promise<number> {
  return new Promise((ready) => server.listen(0, host, () => ready((server.address() as { port: number }).port)))
}

describe.skipIf(noDocker)('packaged agents on the run\'s own network', { timeout: 600_000 }, () => {
  let tag = ''
  let base = ''
  // A model server on loopback only (as Ollama), and a service any interface reaches (0.0.0.0).
  const model: HttpServer = createHttpServer((request, response) => response.end(`model saw ${request.url}`))
  // A probe that connects and closes at once resets the connection: not an error here.
  const bystander: Server = createServer((socket) => socket.on('error', () => {}).end('bystander\n'))
  let modelPort = 0
  let bystanderPort = 0
  let networkId = ''

  beforeAll(async () => {
    base = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
    tag = await ensureAgentImage(docker, minimalPython, base, () => {})
    modelPort = await listen(model, '127.0.0.1')
    bystanderPort = await listen(bystander, '0.0.0.0')
  }, 900_000)

  afterAll(async () => {
    await removeRunContainers(docker, RUN)
    await new Promise((done) => model.close(done))
    await new Promise((done) => bystander.close(done))
  })

  async function startAgent(name: string) {
    const { spec } = minimalPython.spec
    const sandbox = await DesktopSandbox.open({
      docker,
      image: tag,
      runId: RUN,
      taskId: name,
      setupCmd: null,
      network: false,
      limits: { memoryMb: spec.requirements.memory_mb, cpus: spec.requirements.cpus, pids: spec.requirements.pids },
      agentServer: { port: PORT, env: { ...spec.environment, OPENAI_API_KEY: 'sk-network-test' } },
    })
    const published = await sandbox.publishedPort(PORT)
    const client = new AgentServerClient(`http://127.0.0.1:${published}`, await sandbox.gateway())
    await client.waitHealthy(spec.health.path, spec.health.timeout_ms, { logs: () => sandbox.logs(), gone: async () => null })
    return { sandbox, client, published, ip: await ipOf(sandbox.container), probe: probeIn((command) => sandbox.exec(command)) }
  }

  test('two agents at once reach neither each other nor this machine, but for the model relay', async () => {
    const [a, b] = await Promise.all([startAgent('agent-a'), startAgent('agent-b')])
    // A task's desktop with network: true (no agent) is on the same network.
    const plain = await DesktopSandbox.open({ docker, image: base, runId: RUN, taskId: 'plain-network', setupCmd: null, network: true })
    const network = await runNetwork(docker, RUN)
    networkId = network.id
    expect(network.unfirewalled).toBeNull()
    const info = await docker.getNetwork(network.id).inspect()
    expect(info.Options).toMatchObject({ 'com.docker.network.bridge.enable_icc': 'false' })
    expect(info.Labels).toMatchObject({ [LABEL.run]: RUN, [LABEL.managed]: 'true' })
    expect(Object.keys(info.Containers ?? {}).sort()).toEqual(
      [(await a.sandbox.container.inspect()).Id, (await b.sandbox.container.inspect()).Id, (await plain.container.inspect()).Id].sort(),
    )
    expect(await a.sandbox.gateway()).toBe(network.gateway)

    // The servers are there: this machine reaches each agent's server at its address, and the bystander at the gateway.
    expect((await fetch(`http://${b.ip}:${PORT}/health`)).status).toBe(200)
    expect((await fetch(`http://${a.ip}:${PORT}/health`)).status).toBe(200)
    expect(await readLine(network.gateway, bystanderPort)).toBe('bystander')

    // A's model URL goes through a relay on the gateway, whose port alone is open to the network.
    const relayed = new URL(await a.client.containerUrl(`http://127.0.0.1:${modelPort}/v1`))
    expect(relayed.hostname).toBe('host.docker.internal')
    const fetched = await a.sandbox.exec(['python3', '-c', `import urllib.request; print(urllib.request.urlopen('http://host.docker.internal:${relayed.port}/v1/models', timeout=5).read().decode())`])
    expect(fetched.stdout.toString().trim(), fetched.stderr.toString()).toBe('model saw /v1/models')

    // The other agent's server, by its address or by the port the harness reaches it at; any
    // service of this machine, at any of its addresses; the model server itself, but through the relay.
    const forbidden = (peer: { ip: string; published: number }) => [
      `${peer.ip}:${PORT}`,
      `${network.gateway}:${peer.published}`,
      ...hostAddresses().map((address) => `${address}:${bystanderPort}`),
      `${network.gateway}:${modelPort}`,
    ]
    const fromA = await a.probe([`host.docker.internal:${relayed.port}`, ...forbidden(b)])
    expect(fromA[`host.docker.internal:${relayed.port}`]).toBe('open')
    for (const target of forbidden(b)) expect(fromA[target], `agent A to ${target}`).not.toBe('open')
    const fromB = await b.probe(forbidden(a))
    for (const target of forbidden(a)) expect(fromB[target], `agent B to ${target}`).not.toBe('open')
    const fromPlain = await probeIn((command) => plain.exec(command))([...forbidden(a), `${b.ip}:${PORT}`])
    for (const [target, outcome] of Object.entries(fromPlain)) expect(outcome, `the network: true desktop to ${target}`).not.toBe('open')
    // No IPv6 at all in there: no way round the IPv4 firewall through a link-local address.
    expect((await a.sandbox.exec(['cat', '/proc/net/if_inet6'])).stdout.toString().trim()).toBe('')
    await plain.close()
  })

  test('on Docker\'s default bridge, as before, the same probes reach both', async () => {
    const start = async (name: string, cmd: string[]) => {
      const container = await docker.createContainer({
        name: `agentest-${name}-${process.pid}`,
        Image: base,
        Entrypoint: cmd,
        User: 'agent',
        Labels: containerLabels(RUN, name),
        HostConfig: { NetworkMode: 'bridge' },
      })
      await container.start()
      return container
    }
    const server = await start('control-server', ['python3', '-m', 'http.server', String(PORT)])
    const client = await start('control-client', ['sleep', '300'])
    const peer = `${await ipOf(server)}:${PORT}`
    const probe = probeIn((command) => execIn(client, command, { user: 'agent' }))
    // The server may take a moment to listen.
    for (let tries = 0; tries < 20 && (await probe([peer]))[peer] !== 'open'; tries++) await new Promise((r) => setTimeout(r, 250))
    const docker0 = `172.17.0.1:${bystanderPort}`
    expect(await probe([peer, docker0])).toEqual({ [peer]: 'open', [docker0]: 'open' })
  })

  test('cleanup removes the run\'s network and its firewall', async () => {
    expect(networkId).not.toBe('')
    const chain = `AGENTEST-${networkId.slice(0, 12)}`
    expect(execFileSync('iptables', ['-S'], { encoding: 'utf8' })).toContain(`-N ${chain}`)
    await removeRunContainers(docker, RUN)
    expect(await docker.listNetworks({ filters: { label: [`${LABEL.run}=${RUN}`] } })).toEqual([])
    expect(execFileSync('iptables', ['-S'], { encoding: 'utf8' })).not.toContain(chain)
  })
})
