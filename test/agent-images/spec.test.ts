import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { stringify } from 'yaml'
import { AgentImageRegistry, loadAgentSpec } from '../../src/agent-images/registry.ts'
import { agentImagePolicy } from '../../src/schema/agent-image.ts'
import { loadConfig } from '../../src/config/load.ts'

const ROOT = join(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'agentest-specs-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
/** The specs here ask for OPENAI_API_KEY; a config lets them have it (test/secrets/ covers the refusal). */
const POLICY = agentImagePolicy({ allow_secrets: ['OPENAI_API_KEY'] })

function valid(): Record<string, any> {
  return {
    apiVersion: 'agentest/v1',
    kind: 'AgentImage',
    metadata: { name: 'demo', version: '1.0.0' },
    spec: {
      description: 'A demo agent.',
      capabilities: ['computer-use'],
      base: 'agentest/desktop',
      build: { context: '.', dockerfile: 'Dockerfile' },
      requirements: { memory_mb: 1024, cpus: 1, pids: 256 },
      environment: { LOG_LEVEL: 'info', RETRIES: 3 },
      secrets: ['OPENAI_API_KEY'],
      ports: [{ name: 'agent', port: 8000 }],
      health: { path: '/health', timeout_ms: 30000 },
    },
  }
}

let files = 0
function write(value: unknown, folder = dir): string {
  const file = join(folder, `spec-${++files}.agent.yaml`)
  writeFileSync(file, typeof value === 'string' ? value : stringify(value))
  return file
}

/** The error lines of loading a spec, with the temp folder taken out. */
function problems(value: unknown): string[] {
  try {
    loadAgentSpec(write(value), dir, POLICY)
  } catch (error) {
    return (error as Error).message.split('\n').map((line) => line.replace(/^spec-\d+\.agent\.yaml/, 'x.agent.yaml'))
  }
  return []
}

function mutate(change: (spec: Record<string, any>) => void): Record<string, any> {
  const spec = valid()
  change(spec)
  return spec
}

describe('agent image specs', () => {
  test('a complete spec loads, with environment values as strings and defaults filled in', () => {
    const loaded = loadAgentSpec(write(valid()), dir, POLICY)
    expect(loaded.ref).toBe('demo:1.0.0')
    expect(loaded.spec.spec.environment).toEqual({ LOG_LEVEL: 'info', RETRIES: '3' })
    const minimal = mutate((s) => {
      delete s.spec.requirements
      delete s.spec.environment
      delete s.spec.secrets
      delete s.spec.capabilities
    })
    expect(loadAgentSpec(write(minimal), dir, POLICY).spec.spec.requirements).toEqual({ memory_mb: 2048, cpus: 1, pids: 512 })
  })

  test('the example agents\' specs load under the project\'s config', () => {
    const registry = AgentImageRegistry.load(['fixtures/agents'], ROOT, loadConfig(ROOT, {}).agentImages.policy)
    expect(registry.specs.map((s) => s.ref).sort()).toEqual(['cua-node:0.1.0', 'mcp-node:0.1.0', 'minimal-python:0.1.0'])
  })

  test('a served agent needs no base; what it acts on is the served Computer', () => {
    const served = mutate((s) => {
      delete s.spec.base
      s.spec.computer = 'served'
    })
    const loaded = loadAgentSpec(write(served), dir, POLICY)
    expect(loaded.spec.spec.computer).toBe('served')
    expect(loaded.spec.spec.base).toBeUndefined()
    expect(loadAgentSpec(write(valid()), dir, POLICY).spec.spec.computer).toBe('own-desktop')
  })

  // Each refusal is exactly one line naming the file and the field.
  test.each([
    ['privileged mode', (s: any) => (s.spec.privileged = true), 'x.agent.yaml: spec.privileged: privileged mode is refused'],
    ['host networking', (s: any) => (s.spec.network = 'host'), 'x.agent.yaml: spec.network: host networking is refused'],
    ['host networking (network_mode)', (s: any) => (s.spec.network_mode = 'host'), 'x.agent.yaml: spec.network_mode: host networking is refused'],
    ['a host mount', (s: any) => (s.spec.volumes = ['/etc:/host-etc']), 'x.agent.yaml: spec.volumes[0]: host mounts are refused (copy what the agent needs into its image)'],
    ['the Docker socket', (s: any) => (s.spec.mounts = [{ source: '/var/run/docker.sock', target: '/var/run/docker.sock' }]), 'x.agent.yaml: spec.mounts[0]: mounting the Docker socket is refused'],
    ['the Docker socket via DOCKER_HOST', (s: any) => (s.spec.environment.DOCKER_HOST = 'unix:///var/run/docker.sock'), 'x.agent.yaml: spec.environment.DOCKER_HOST: pointing the agent at the Docker socket is refused'],
    ['added capabilities', (s: any) => (s.spec.cap_add = ['SYS_ADMIN']), 'x.agent.yaml: spec.cap_add: added capabilities are refused (the container runs with none)'],
    ['host devices', (s: any) => (s.spec.devices = ['/dev/kvm']), 'x.agent.yaml: spec.devices: host devices are refused'],
    ['memory above the maximum', (s: any) => (s.spec.requirements.memory_mb = 16384), 'x.agent.yaml: spec.requirements.memory_mb: 16384 is above the allowed maximum of 8192'],
    ['cpus above the maximum', (s: any) => (s.spec.requirements.cpus = 8), 'x.agent.yaml: spec.requirements.cpus: 8 is above the allowed maximum of 4'],
    ['pids above the maximum', (s: any) => (s.spec.requirements.pids = 100000), 'x.agent.yaml: spec.requirements.pids: 100000 is above the allowed maximum of 4096'],
    ['a bad version', (s: any) => (s.metadata.version = 'v1'), 'x.agent.yaml: metadata.version: a semantic version like 1.2.0'],
    ['a bad apiVersion', (s: any) => (s.apiVersion = 'agentest/v2'), 'x.agent.yaml: apiVersion: this agentest reads apiVersion: agentest/v1'],
    ['a wrong kind', (s: any) => (s.kind = 'Agent'), 'x.agent.yaml: kind: kind must be AgentImage'],
    ['a missing base', (s: any) => delete s.spec.base, "x.agent.yaml: spec.base: an own-desktop agent runs on the task's image: name the sandbox image it extends (base: agentest/desktop), or act through the served Computer (computer: served)"],
    ['a way of acting agentest does not know', (s: any) => (s.spec.computer = 'remote'), 'x.agent.yaml: spec.computer: Invalid option: expected one of "own-desktop"|"served"'],
    ['a missing health check', (s: any) => delete s.spec.health, 'x.agent.yaml: spec.health: Invalid input: expected object, received undefined'],
    ['an unknown key', (s: any) => (s.spec.entrypoint = 'run.sh'), 'x.agent.yaml: spec: Unrecognized key: "entrypoint"'],
    ['an unknown key in metadata', (s: any) => (s.metadata.owner = 'me'), 'x.agent.yaml: metadata: Unrecognized key: "owner"'],
    ['no agent port', (s: any) => (s.spec.ports = [{ name: 'metrics', port: 9000 }]), 'x.agent.yaml: spec.ports: one port must be named "agent": it serves the protocol'],
    ['both image and build', (s: any) => (s.spec.image = 'me/agent:1'), 'x.agent.yaml: spec.image: give either image or build, not both'],
    ['neither image nor build', (s: any) => delete s.spec.build, 'x.agent.yaml: spec.build: give the image to run (image: ...) or how to build it (build: { context, dockerfile })'],
    ['a secret that is not a variable name', (s: any) => (s.spec.secrets = ['my key']), 'x.agent.yaml: spec.secrets[0]: an environment variable name'],
  ])('refuses %s in one line', (_, change, line) => {
    expect(problems(mutate(change))).toEqual([line])
  })

  test('reports every problem of a file, one line each', () => {
    const spec = mutate((s) => {
      s.spec.privileged = true
      s.spec.cap_add = ['NET_ADMIN']
    })
    expect(problems(spec)).toEqual([
      'x.agent.yaml: spec.privileged: privileged mode is refused',
      'x.agent.yaml: spec.cap_add: added capabilities are refused (the container runs with none)',
    ])
  })

  test('malformed YAML names the line and column', () => {
    expect(problems('apiVersion: agentest/v1\nkind: [AgentImage\n')).toEqual([expect.stringMatching(/^x\.agent\.yaml:\d+:\d+: malformed YAML: /)])
  })

  test('privileged: false and an empty cap_add are fine', () => {
    expect(problems(mutate((s) => ((s.spec.privileged = false), (s.spec.cap_add = []), (s.spec.network = 'bridge'))))).toEqual([])
  })
})

describe('the agent image registry', () => {
  const folder = join(dir, 'registry')
  mkdirSync(join(folder, 'nested'), { recursive: true })
  for (const version of ['0.9.0', '1.10.0', '1.2.0', '2.0.0-rc.1']) {
    write(mutate((s) => (s.metadata.version = version)), version === '1.2.0' ? join(folder, 'nested') : folder)
  }
  write(mutate((s) => (s.metadata.name = 'other')), folder)

  test('resolves name:version, and a bare name (or :latest) to the highest release', () => {
    const registry = AgentImageRegistry.load([folder, join(dir, 'missing-folder')], dir, POLICY)
    expect(registry.resolve('demo:1.2.0').spec.metadata.version).toBe('1.2.0')
    expect(registry.resolve('demo').spec.metadata.version).toBe('2.0.0-rc.1')
    expect(registry.resolve('demo:latest').ref).toBe(registry.resolve('demo').ref)
    expect(registry.resolve('other').ref).toBe('other:1.0.0')
  })

  test('an unknown name or version is one line listing what there is', () => {
    const registry = AgentImageRegistry.load([folder], dir, POLICY)
    expect(() => registry.resolve('nobody')).toThrow('unknown agent image "nobody" (known: demo, other)')
    expect(() => registry.resolve('demo:3.0.0')).toThrow('agent image "demo" has no version 3.0.0 (known: 0.9.0, 1.2.0, 1.10.0, 2.0.0-rc.1)')
  })

  test('the same name:version twice is refused', () => {
    const twice = join(dir, 'twice')
    mkdirSync(twice)
    write(valid(), twice)
    const second = write(valid(), twice)
    expect(() => AgentImageRegistry.load([twice], dir, POLICY)).toThrow(`twice/${second.split('/').pop()}: metadata: demo:1.0.0 is already defined in twice/`)
  })
})

describe('choosing a packaged agent in the config', () => {
  test('AGENTEST_AGENT=image with AGENTEST_AGENT_SPEC resolves the spec', () => {
    const loaded = loadConfig(ROOT, { AGENTEST_AGENT: 'image', AGENTEST_AGENT_SPEC: 'minimal-python' })
    expect(loaded.agentImage?.ref).toBe('minimal-python:0.1.0')
    expect(loaded.agentImage?.shown).toBe('fixtures/agents/minimal-python/minimal-python.agent.yaml')
  })

  test('without a spec, or with an unknown one, is one line', () => {
    expect(() => loadConfig(ROOT, { AGENTEST_AGENT: 'image' })).toThrow(
      'agent.spec: the image agent needs a spec: agent.spec (or AGENTEST_AGENT_SPEC) = <name:version>',
    )
    expect(() => loadConfig(ROOT, { AGENTEST_AGENT: 'image', AGENTEST_AGENT_SPEC: 'cua-node:9.9.9' })).toThrow(
      'AGENTEST_AGENT_SPEC: agent image "cua-node" has no version 9.9.9 (known: 0.1.0)',
    )
  })
})
