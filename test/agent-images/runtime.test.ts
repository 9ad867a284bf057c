import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import { AgentImageError, ensureAgentImage } from '../../src/agent-images/build.ts'
import { AgentServerClient } from '../../src/agent-images/client.ts'
import { imageAgent } from '../../src/agents/packaged/image-agent.ts'
import { AgentImageRegistry, type LoadedAgentSpec } from '../../src/agent-images/registry.ts'
import { agentPort } from '../../src/schema/agent-image.ts'
import { ensureImage, imageDir, LABEL, removeRunContainers } from '../../src/docker/index.ts'
import { runNetwork } from '../../src/docker/agent-network.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { AgentConfig } from '../../src/schema/config.ts'
import { agentTaskOf } from '../../src/agents/task.ts'
import { loadConfig } from '../../src/config/index.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { RecordingComputer, TaskAbortedError } from '../../src/trajectory/recording-computer.ts'
import { docker, noDocker } from '../docker/docker-available.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { TSX } from '../grader/run-script.ts'

const RUN = `agent-image-test-${process.pid}`
// The project's own config allows the examples' OPENAI_API_KEY secret.
const registry = AgentImageRegistry.load(['fixtures/agents'], ROOT, loadConfig(ROOT, {}).agentImages.policy)
const cuaNode = registry.resolve('cua-node')
const minimalPython = registry.resolve('minimal-python')

/** Starts a packaged agent's container the way a task does, and waits for its health path. */
async function startAgent(loaded: LoadedAgentSpec, tag: string, env: Record<string, string> = {}, healthTimeoutMs?: number) {
  const { spec } = loaded.spec
  const sandbox = await DesktopSandbox.open({
    docker,
    image: tag,
    runId: RUN,
    taskId: loaded.spec.metadata.name,
    setupCmd: null,
    network: false,
    limits: { memoryMb: spec.requirements.memory_mb, cpus: spec.requirements.cpus, pids: spec.requirements.pids },
    agentServer: { port: agentPort(loaded.spec), env: { ...spec.environment, OPENAI_API_KEY: 'sk-runtime-test', ...env } },
  })
  const client = new AgentServerClient(`http://127.0.0.1:${await sandbox.publishedPort(agentPort(loaded.spec))}`, await sandbox.gateway())
  const health = client.waitHealthy(spec.health.path, healthTimeoutMs ?? spec.health.timeout_ms, {
    logs: () => sandbox.logs(),
    gone: async () => ((await sandbox.isRunning()) ? null : 'stopped'),
  })
  return { sandbox, client, health }
}

function checkCommand(reference: string, env: string[] = []) {
  const args = [...TSX, 'scripts/agent-check.ts', reference, ...env.flatMap((e) => ['--env', e])]
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 240_000 })
  return { code: result.status, out: `${result.stdout}${result.stderr}` }
}

describe.skipIf(noDocker)('packaged agents on a real engine', { timeout: 600_000 }, () => {
  let base = ''
  const tags: Record<string, string> = {}
  let server: ModelServer | null = null
  const dir = mkdtempSync(join(tmpdir(), 'agentest-agent-image-'))

  beforeAll(async () => {
    base = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
    for (const loaded of [cuaNode, minimalPython]) tags[loaded.ref] = await ensureAgentImage(docker, loaded, base, () => {})
  }, 900_000)

  afterAll(async () => {
    await removeRunContainers(docker, RUN)
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('both examples are built on the desktop image, once per change of their inputs', async () => {
    const built: string[] = []
    for (const loaded of [cuaNode, minimalPython]) {
      expect(tags[loaded.ref]).toMatch(new RegExp(`^agentest-agent/${loaded.spec.metadata.name}:0\\.1\\.0-[0-9a-f]{12}$`))
      expect(await ensureAgentImage(docker, loaded, base, (line) => built.push(line))).toBe(tags[loaded.ref])
    }
    expect(built).toEqual([])
  })

  test('an image that does not extend the task\'s base is refused, naming the spec', async () => {
    const foreign: LoadedAgentSpec = { ...minimalPython, spec: { ...minimalPython.spec, spec: { ...minimalPython.spec.spec, build: undefined, image: 'debian:bookworm-slim' } } }
    const error = await ensureAgentImage(docker, foreign, base, () => {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentImageError)
    expect((error as Error).message).toBe(
      `fixtures/agents/minimal-python/minimal-python.agent.yaml: spec.base: debian:bookworm-slim does not extend agentest/desktop (${base}); build it FROM the base image (ARG BASE_IMAGE / FROM \${BASE_IMAGE})`,
    )
  })

  test('a build that fails says why, from its own output, and leaves no container behind', async () => {
    const context = mkdtempSync(join(dir, 'broken-'))
    writeFileSync(join(context, 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN echo "E: Unable to locate package frobnicate" && false\n')
    const file = join(context, 'broken.agent.yaml')
    const broken: LoadedAgentSpec = { ...minimalPython, file, shown: 'broken.agent.yaml', ref: 'broken:0.1.0', spec: { ...minimalPython.spec, metadata: { name: 'broken', version: '0.1.0' } } }
    // The build's own step containers (other tests may stop containers of their own meanwhile).
    const stopped = async () =>
      (await docker.listContainers({ all: true, filters: { status: ['exited', 'created'] } })).filter((c) => c.Command.includes('frobnicate')).length
    const before = await stopped()
    const error = (await ensureAgentImage(docker, broken, base, () => {}).catch((e: unknown) => e)) as Error
    expect(error).toBeInstanceOf(AgentImageError)
    expect(error.message).toMatch(/^broken\.agent\.yaml: spec\.build: building agentest-agent\/broken:0\.1\.0-[0-9a-f]{12} failed: a RUN step returned a non-zero code: 1; its last output:\n/)
    expect(error.message).toContain('| E: Unable to locate package frobnicate')
    expect(await stopped()).toBe(before)
  })

  test('the spec\'s limits, environment and port are applied, and nothing more is granted', async () => {
    const { sandbox, health } = await startAgent(minimalPython, tags[minimalPython.ref]!, { EXTRA: 'yes' })
    await health
    const info = await sandbox.container.inspect()
    const { requirements } = minimalPython.spec.spec
    expect(info.HostConfig).toMatchObject({
      Memory: requirements.memory_mb * 1024 * 1024,
      NanoCpus: requirements.cpus * 1e9,
      PidsLimit: requirements.pids,
      Privileged: false,
      CapDrop: ['ALL'],
      // The run's own network (src/docker/agent-network.ts), not Docker's default bridge.
      NetworkMode: (await runNetwork(docker, RUN)).id,
    })
    // Root's, for the observer and the entrypoint that drops to the agent; the agent's processes hold none.
    expect(info.HostConfig.CapAdd).toEqual(['SYS_PTRACE', 'KILL', 'SETUID', 'SETGID'])
    const caps = await sandbox.shell("for p in $(pgrep -u agent); do grep -h -E '^Cap(Prm|Eff):' /proc/$p/status; done | sort -u")
    expect(caps.stdout.toString().trim().split('\n')).toEqual(['CapEff:\t0000000000000000', 'CapPrm:\t0000000000000000'])
    expect(info.HostConfig.Binds ?? []).toEqual([])
    expect(info.Mounts).toEqual([])
    expect(info.HostConfig.PortBindings).toEqual({ [`${agentPort(minimalPython.spec)}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] })
    expect(info.Config.Env).toEqual(expect.arrayContaining(['EXTRA=yes', 'DISPLAY=:99']))
    expect(info.Config.Labels).toMatchObject({ [LABEL.run]: RUN, [LABEL.managed]: 'true' })
    await sandbox.close()
  })

  test('a health path that never answers is a clear error quoting the container\'s log', async () => {
    const { sandbox, health } = await startAgent(minimalPython, tags[minimalPython.ref]!, { MINIMAL_AGENT_FAULT: 'no-health' }, 4_000)
    const error = await health.catch((e: unknown) => e as Error)
    await sandbox.close()
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/^the agent server is not healthy: GET \/health did not answer 2xx within 4000 ms \(last: HTTP 503\); its last log lines:\n  \| /)
  })

  test('aborting the task cancels the agent\'s run: it stops its model call while the container still stands', async () => {
    server = await startModelServer({ policy: [{ fault: 'hang' }] })
    const { sandbox, client, health } = await startAgent(cuaNode, tags[cuaNode.ref]!)
    await health
    const recorder = new Recorder(dir, 'cancel', null)
    const controller = new AbortController()
    const computer = new RecordingComputer(sandbox.computer, recorder, { maxSteps: 10, signal: controller.signal })
    const task = agentTaskOf({ id: 'cancel', task: 'Wait forever.' }, { environment: 'linux', screen: computer.dimensions, maxSteps: 10, timeoutMs: 60_000 })
    const running = imageAgent.run(
      {
        task,
        computer,
        signal: controller.signal,
        think: () => {},
        config: AgentConfig.parse({ name: 'image', spec: cuaNode.ref, model: 'scripted', base_url: server.url }),
      },
      {
        reference: null,
        referenceName: 'reference solution',
        resultsDir: dir,
        agentServer: client,
        report: (step) => computer.recordReported(step.action, step.error),
        log: async () => {},
      },
    )
    await expect.poll(() => server!.requests.length, { timeout: 30_000 }).toBe(1)
    controller.abort(new Error('the task timed out'))
    await expect(running).rejects.toBeInstanceOf(TaskAbortedError)
    await expect.poll(() => server!.requests[0]!.aborted, { timeout: 10_000 }).toBe(true)
    expect(await sandbox.isRunning()).toBe(true)
    await sandbox.close()
    const left = await docker.listContainers({ all: true, filters: { label: [`${LABEL.run}=${RUN}`] } })
    expect(left).toEqual([])
  })

  test('the conformance command passes both examples', () => {
    for (const reference of [cuaNode.ref, 'fixtures/agents/minimal-python/minimal-python.agent.yaml']) {
      const { code, out } = checkCommand(reference)
      expect(out).toContain('conforms to agentest/v1')
      expect(out).not.toContain('✗')
      expect(code, out).toBe(0)
    }
  })

  test.each([
    ['bad-event', 'run stream', /✗ run stream: line \d+ of the stream: action\.type: /],
    ['no-final', 'run stream', /✗ run stream: the stream ended after \d+ line\(s\) without a final event/],
    ['ignore-cancel', 'cancelled', /✗ cancelled: the stream did not end within 10 s of the cancel/],
  ])('the conformance command names what a broken agent (%s) gets wrong', (fault, check, line) => {
    const { code, out } = checkCommand(minimalPython.ref, [`MINIMAL_AGENT_FAULT=${fault}`])
    expect(out).toMatch(line)
    expect(out).toContain(`fails 1 of`)
    expect(out).toContain(`: ${check}\n`)
    expect(code).toBe(1)
  })
})
