import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { startOmnizon, type OmnizonServer } from '../../fixtures/apps/omnizon/index.ts'
import { startModelServer, type ModelCall } from '../../fixtures/model-server/index.ts'
import type { ReplyInput } from '../../fixtures/model-server/openai/replies.ts'
import { dockerClient, LABEL } from '../../src/docker/index.ts'
import { killGroup, until, type RunHandle, type Scenario } from './run-scenario.ts'
import { engineNotOurs, startEngine, stopEngine } from './dockerd.ts'

const omnizon = (...ids: number[]) => ids.map((id) => `tasks/omnizon/omnizon-${id}.task.ts`)
const DESKTOP = ['tasks/desktop/terminal-hello.task.ts', 'tasks/desktop/editor-note.task.ts']

/** One task finished (so the resumed run has something to reuse) and the next one in flight. */
async function midRun(run: RunHandle): Promise<string> {
  let task: string | null = null
  await until(() => run.finished().length >= 1 && (task = run.inFlight()) !== null)
  return task!
}

/** Ctrl-C or SIGTERM to the whole process group, as a terminal or a service manager sends it. */
function signalScenario(signal: 'SIGINT' | 'SIGTERM', fast: boolean): Scenario {
  return {
    fault: signal === 'SIGINT' ? 'Ctrl-C mid-task' : 'SIGTERM mid-task',
    fast,
    needsDocker: true,
    tasks: [...omnizon(1, 2), DESKTOP[0]!],
    expect: 'aborted',
    stopsRun: true,
    async inject(run) {
      await midRun(run)
      killGroup(run.pid, signal)
    },
  }
}

const killWorker: Scenario = {
  fault: 'kill -9 of a Vitest worker',
  fast: true,
  needsDocker: false,
  tasks: omnizon(1, 2, 4),
  expect: 'worker_killed',
  stopsRun: true,
  async inject(run) {
    await midRun(run)
    const { execFileSync } = await import('node:child_process')
    const workers = execFileSync('pgrep', ['-P', String(run.pid), '-f', 'workers/forks'], { encoding: 'utf8' }).trim().split('\n')
    for (const pid of workers) process.kill(Number(pid), 'SIGKILL')
  },
}

/** The model API answers 500, then drops connections: every task ends as model_error; healed, they run again. */
const modelFailing: Scenario = {
  fault: 'model server: 500s, then dropped connections',
  fast: false,
  needsDocker: false,
  tasks: omnizon(1, 2),
  expect: 'model_error',
  stopsRun: false,
  async prepare() {
    let healthy = false
    const failing = (call: ModelCall): ReplyInput => (call.attempt === 0 ? { fault: 'status', status: 500 } : { fault: 'drop' })
    const server = await startModelServer({ policy: (call) => (healthy ? { answer: 'I could not do it.' } : failing(call)) })
    const file = join(mkdtempSync(join(tmpdir(), 'agentest-chaos-model-')), 'agentest.config.yaml')
    writeFileSync(file, stringify({ agent: { name: 'openai-chat', model: 'scripted', base_url: server.url, options: { retries: 1 } } }))
    return {
      env: { AGENTEST_CONFIG: file, AGENTEST_AGENT: 'openai-chat', OPENAI_API_KEY: 'sk-chaos-not-secret' },
      heal: async () => {
        healthy = true
      },
      close: () => server.close(),
    }
  },
  async inject() {},
}

/** The web clone dies mid-task; restarted on the same address, the run resumes. */
const cloneKilled: Scenario = {
  fault: 'Omnizon server killed mid-task',
  fast: false,
  needsDocker: false,
  tasks: omnizon(1, 2, 4),
  expect: 'clone_down',
  stopsRun: false,
  async prepare() {
    let server: OmnizonServer = await startOmnizon()
    const port = server.port
    return {
      // A task whose page lost its server waits for its timeout; a short one keeps the scenario quick.
      env: { AGENTEST_OMNIZON_URL: server.url, AGENTEST_TASK_TIMEOUT_MS: '30000' },
      breakIt: () => server.close(),
      heal: async () => {
        server = await startOmnizon({ port })
      },
      close: () => server.close(),
    }
  },
  async inject(run, prepared) {
    await midRun(run)
    await prepared.breakIt?.()
  },
}

/** `docker kill` of the container a desktop task is acting in. */
const containerKilled: Scenario = {
  fault: 'desktop container killed',
  fast: true,
  needsDocker: true,
  tasks: DESKTOP,
  expect: 'sandbox_gone',
  stopsRun: false,
  async inject(run) {
    const task = await midRun(run)
    const docker = dockerClient()
    const runId = run.runDir()!.split('/').pop()!
    const [container] = await docker.listContainers({ filters: { label: [`${LABEL.run}=${runId}`, `${LABEL.task}=${task}`] } })
    if (container) await docker.getContainer(container.Id).kill()
  },
}

/**
 * A process in a desktop container fills its memory limit (a hog started as root in the
 * in-flight task's container): the kernel kills it there, Docker marks the container, and the
 * task, which the `hang` agent fails at its step budget anyway, is recorded as out_of_memory.
 */
const memoryLimit: Scenario = {
  fault: 'desktop container hits its memory limit',
  fast: false,
  needsDocker: true,
  tasks: DESKTOP,
  expect: 'out_of_memory',
  stopsRun: false,
  async prepare() {
    const file = join(mkdtempSync(join(tmpdir(), 'agentest-chaos-oom-')), 'agentest.config.yaml')
    const hang = join(import.meta.dirname, '../../test/data/agents/hang.ts')
    writeFileSync(file, stringify({ agent: { name: 'hang' }, agents: { hang }, max_steps: 40, docker: { memory_mb: 256 } }))
    return { env: { AGENTEST_CONFIG: file, AGENTEST_AGENT: 'hang' }, close: async () => {} }
  },
  async inject(run) {
    const task = await midRun(run)
    const docker = dockerClient()
    const runId = run.runDir()!.split('/').pop()!
    const [container] = await docker.listContainers({ filters: { label: [`${LABEL.run}=${runId}`, `${LABEL.task}=${task}`] } })
    if (!container) return
    const exec = await docker.getContainer(container.Id).exec({ Cmd: ['tail', '/dev/zero'], User: 'root' })
    await exec.start({ Detach: true })
  },
}

/**
 * The Docker engine stopped mid-run (the in-flight desktop task's container stops with it) and
 * started again once that task has its record: the task is recorded as docker_unreachable, and
 * the run's containers are swept when the engine is back. It stops every container on the
 * machine, so it is in the full form only, and only where dockerd is ours to stop.
 */
const engineRestarted: Scenario = {
  fault: 'Docker daemon stopped mid-run, started again',
  fast: false,
  needsDocker: true,
  unavailable: engineNotOurs,
  tasks: DESKTOP,
  // A stopping daemon first stops its containers: a task that looks while it does so finds its
  // container gone; one that looks after, an engine that does not answer. Both name the fault.
  expect: ['docker_unreachable', 'sandbox_gone'],
  stopsRun: false,
  async inject(run) {
    const task = await midRun(run)
    try {
      await stopEngine()
      await until(() => run.finished().includes(`${task}.json`), 120_000).catch(() => undefined)
    } finally {
      await startEngine()
    }
  },
}

export const SCENARIOS: Scenario[] = [
  signalScenario('SIGINT', true),
  signalScenario('SIGTERM', false),
  killWorker,
  modelFailing,
  cloneKilled,
  containerKilled,
  memoryLimit,
  engineRestarted,
]
