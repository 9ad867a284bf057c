import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { filesHolding } from '../support/files-holding.ts'
import { startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { commandAgentPolicy, GIVE_UP } from '../data/command-agents/policy.ts'
import { runBenchmark } from '../e2e/run-benchmark.ts'
import { runScript } from '../grader/run-script.ts'
import { ensureAgentImage } from '../../src/agent-images/build.ts'
import { agentContainerSettings } from '../../src/agent-images/container-settings.ts'
import { loadAgentSpec } from '../../src/agent-images/registry.ts'
import { startServedAgent } from '../../src/agent-images/served-container.ts'
import { runNetwork } from '../../src/docker/agent-network.ts'
import { dockerClient, removeRunContainers } from '../../src/docker/index.ts'
import { agentImagePolicy } from '../../src/schema/agent-image.ts'
import { noDocker } from './docker-available.ts'

/**
 * A packaged agent that acts through the served Computer (fixtures/agents/mcp-node packaged with
 * `computer: served`): its own container, with no desktop, on a browser task and a desktop task
 * alike. Its model calls go to the scripted model server (a test double) on this machine's
 * loopback, relayed to the container as Ollama's would be; it reaches the task's Computer only
 * through the relay, with the task's token.
 */
const OMNIZON = 'tasks/omnizon/omnizon-1.task.ts'
const DESKTOP = 'tasks/desktop/terminal-hello.task.ts'
const NOP = { file: 'tasks/omnizon/omnizon-2.task.ts', id: 'omnizon-2' }
const KEY = 'sk-agentest-served-image-KEY-7f3a91c2'
const IMAGE_AGENT = { AGENTEST_CONFIG: 'test/data/served-agents.config.yaml', AGENTEST_AGENT: 'image', AGENTEST_AGENT_SPEC: 'mcp-node', AGENTEST_MODEL: 'scripted-model', OPENAI_API_KEY: KEY }

let oracle: TestCaseRun[] = []
let server: ModelServer | null = null

const actionsOf = (record: TestCaseRun) => record.trajectory.filter((s) => s.action.type !== 'message')


/** Containers (running or not) labelled with the run's main process. */
function containersOf(pid: number): string {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=dev.agentest.pid=${pid}`], { encoding: 'utf8' }).trim()
}

describe.skipIf(noDocker)('a packaged agent through the served Computer', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    const recorded = await runBenchmark([OMNIZON, DESKTOP], { AGENTEST_AGENT: 'oracle' }, undefined, { grader: false })
    oracle = recorded.results
    expect(oracle.map((r) => r.status), recorded.stdout.slice(-2000)).toEqual(['passed', 'passed'])
    server = await startModelServer({ policy: commandAgentPolicy(oracle) })
  }, 600_000)

  afterAll(async () => {
    await server?.close()
  })

  test('passes an Omnizon task and a desktop task, fails when its model gives up, and leaves nothing behind', async () => {
    const run = await runBenchmark([OMNIZON, DESKTOP, NOP.file], { ...IMAGE_AGENT, AGENTEST_BASE_URL: server!.url }, undefined, { grader: false })
    const shown = `${run.stderr}${run.stdout.slice(-3000)}`
    expect(run.runDir, shown).not.toBeNull()
    const byId = Object.fromEntries(run.results.map((r) => [r.id, r]))
    for (const expected of oracle) {
      const result = byId[expected.id]!
      expect(result.status, `${result.id}: ${result.error?.message}\n${shown}`).toBe('passed')
      // The oracle's actions, each performed through MCP and recorded by the harness with its own screenshot.
      expect(actionsOf(result).map((s) => s.action)).toEqual(actionsOf(expected).map((s) => s.action))
      for (const step of actionsOf(result)) {
        expect(step.screenshot).toMatch(new RegExp(`^${result.id}/step-\\d{3}\\.png$`))
        expect(readFileSync(join(run.runDir!, step.screenshot!)).subarray(1, 4).toString()).toBe('PNG')
      }
    }
    expect(byId['omnizon-1']!.final_answer).toBe(oracle.find((r) => r.id === 'omnizon-1')!.final_answer)
    const nop = byId[NOP.id]!
    expect(nop.status, nop.error?.message).toBe('failed')
    expect(nop.final_answer).toBe(GIVE_UP)
    expect(actionsOf(nop)).toEqual([])
    // The container sent the key to its model (through the relay); the key is in no file of the run.
    const calls = server!.requests.filter((r) => r.headers.authorization === `Bearer ${KEY}`)
    expect(calls.length).toBeGreaterThanOrEqual(4)
    expect(filesHolding(KEY, [run.runDir!])).toEqual([])
    expect(containersOf(run.pid)).toBe('')
  })

  test('a step past the budget is refused by the served Computer, and the task ends as max_steps', async () => {
    const run = await runBenchmark([OMNIZON], { ...IMAGE_AGENT, AGENTEST_BASE_URL: server!.url, AGENTEST_MAX_STEPS: '2' }, undefined, { grader: false })
    const [result] = run.results
    expect(result?.status, run.stdout.slice(-2000)).toBe('failed')
    // The agent ended at its budget; the checks ran on what it did, and failed.
    expect(result!.agent_status, result!.error?.message).toBe('max_steps')
    expect(actionsOf(result!)).toHaveLength(2)
    expect(containersOf(run.pid)).toBe('')
  })

  test('agent:check checks an image that speaks MCP: it acts through the served Computer, finishes, and stops when cancelled', async () => {
    const check = await runScript('agent-check.ts', ['fixtures/agents/mcp-node/mcp-node.agent.yaml'], { OPENAI_API_KEY: KEY })
    expect(check.code, check.stdout + check.stderr).toBe(0)
    expect(check.stdout).toMatch(/^✓ run stream: 1 line\(s\), a final event \(done\) and no step events$/m)
    expect(check.stdout).toMatch(/^✓ actions: 1 action\(s\) through the served Computer, each recorded with agentest's screenshot; finish called with "done"$/m)
    expect(check.stdout).toMatch(/^✓ cancelled: /m)
    expect(check.stdout).toContain('agent:check: mcp-node:0.1.0 conforms to agentest/v1 (9 checks)')
  })

  test('its container holds no capabilities, runs as nobody on the run\'s network, is published on loopback only, and goes when closed', async () => {
    const docker = dockerClient()
    const runId = `served-isolation-${process.pid}`
    const loaded = loadAgentSpec('fixtures/agents/mcp-node/mcp-node.agent.yaml', process.cwd(), agentImagePolicy({ allow_secrets: ['OPENAI_API_KEY'] }))
    const image = await ensureAgentImage(docker, loaded, null, () => {})
    const settings = agentContainerSettings({ ...loaded }, [])
    const agent = await startServedAgent({ docker, image, runId, taskId: 'isolation', settings, redact: (text) => text })
    try {
      const info = await docker.getContainer(agent.name).inspect()
      expect(info.Config.User).toBe('nobody')
      expect(info.HostConfig).toMatchObject({
        CapDrop: ['ALL'],
        Privileged: false,
        SecurityOpt: ['no-new-privileges'],
        NetworkMode: (await runNetwork(docker, runId)).id,
        PortBindings: { '8000/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] },
        Memory: 1024 * 1024 * 1024,
      })
      expect(info.HostConfig.CapAdd ?? []).toEqual([])
      expect(info.Mounts).toEqual([])
      expect(info.Config.Labels).toMatchObject({ 'dev.agentest.run': runId, 'dev.agentest.task': 'isolation' })
    } finally {
      await agent.close()
    }
    expect(await docker.getContainer(agent.name).inspect().catch((error: { statusCode?: number }) => error.statusCode)).toBe(404)
    await removeRunContainers(docker, runId)
  })
})
