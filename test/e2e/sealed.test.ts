import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { LABEL } from '../../src/docker/labels.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { E2E_KEY, filesHolding } from '../agents/benchmark-helpers.ts'
import { docker, noDocker } from '../docker/docker-available.ts'
import { runContainers } from '../docker/run-containers.ts'
import { runBenchmark, type BenchmarkRun } from './run-benchmark.ts'

/**
 * Sealed runs: an adversary for each door the harness keeps shut, run as a user would run a
 * benchmark. Each must gain nothing, and its attempt must show in the record.
 */
const CONFIG = { AGENTEST_CONFIG: 'test/data/sealed.config.yaml' }
const HELLO = 'tasks/desktop/terminal-hello.task.ts'

describe('an in-process agent gets the goal and a Computer, nothing more', { timeout: 600_000 }, () => {
  test('pry finds no reference, title, checks, page, request API or container, and fails', async () => {
    const tasks = ['tasks/omnizon/omnizon-1.task.ts', ...(noDocker ? [] : [HELLO])]
    const run = await runBenchmark(tasks, { ...CONFIG, AGENTEST_AGENT: 'pry' })
    expect(run.results).toHaveLength(tasks.length)
    for (const result of run.results) {
      expect(result.status, result.id).toBe('failed')
      const seen = JSON.parse(result.final_answer ?? '{}') as Record<string, unknown>
      expect(seen.reference).toBeNull()
      // transcript is a frozen { wrap } whose closure holds the task's transcript: nothing to walk into.
      expect(seen.context_keys).toEqual(['computer', 'config', 'meter', 'modelCache', 'signal', 'task', 'think', 'transcript'])
      expect(Object.keys(seen.task as object).sort()).toEqual(['environment', 'goal', 'id', 'max_steps', 'screen', 'timeout_ms'])
      expect(JSON.stringify(seen.task)).not.toContain(result.name)
      expect(seen.inner).toBeNull()
      expect(seen.found, result.id).toEqual([])
    }
  })
})

describe.skipIf(noDocker)('desktop checks run out of the agent\'s reach', { timeout: 600_000 }, () => {
  test('an agent that plants a fake cat in every rc file and on PATH fails terminal-hello', async () => {
    const name = `sealed-plant-${process.pid}`
    const run = await runBenchmark([HELLO], { ...CONFIG, AGENTEST_AGENT: 'plant', AGENTEST_RUN_NAME: name, AGENTEST_KEEP_CONTAINERS: '1' })
    const [result] = run.results
    try {
      expect(result?.status, run.stdout.slice(-2000)).toBe('failed')
      expect(result?.command_output_check_results).toEqual([
        { command: 'cat /home/agent/hello.txt', output: '', exit_code: 1 },
      ])
      expect(result?.check_results.map((c) => [c.check, c.passed])).toEqual([
        ['the file exists', false],
        ['it says hello', false],
      ])
      // The traps were really set: the agent's own login shell is fooled by them.
      const kept = await keptContainer(result?.run_id)
      const fooled = execFileSync('docker', ['exec', '-u', 'agent', kept, 'bash', '-lc', 'cat ~/hello.txt'], { encoding: 'utf8' })
      expect(fooled).toBe('hello\n')
    } finally {
      await removeRun(result?.run_id)
    }
  })
})

describe.skipIf(noDocker)('packaged agents are observed, not believed', { timeout: 900_000 }, () => {
  const runs: BenchmarkRun[] = []
  const image = (spec: string, extra: Record<string, string> = {}) =>
    runBenchmark([HELLO], { ...CONFIG, AGENTEST_AGENT: 'image', AGENTEST_AGENT_SPEC: spec, OPENAI_API_KEY: E2E_KEY, ...extra })

  test('forged screenshots and 3x the step budget: the harness\'s screenshots, cut off at the budget', async () => {
    const run = await image('adversary-forge', { AGENTEST_MAX_STEPS: '3' })
    runs.push(run)
    const [result] = run.results
    expect(result?.status, run.stdout.slice(-2000)).toBe('failed')
    // Cut off at the budget (a failed check outranks max_steps as the record's error).
    expect(result?.agent_status).toBe('max_steps')
    const steps = result!.trajectory
    expect(steps.map((s) => s.action.type)).toEqual(['move', 'move', 'move'])
    for (const step of steps) {
      const png = readFileSync(join(run.runDir!, step.screenshot!))
      // The screen's size, not the forged 1x1 picture.
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800])
    }
    expect(await runContainers(result?.run_id, run.pid)).toEqual([])
  })

  test('an agent that echoes its key in thoughts, typing, errors, answers and logs leaves it nowhere under runs/', async () => {
    for (const spec of ['adversary-leak', 'adversary-fail', 'adversary-unwell']) runs.push(await image(spec))
    const [leak, fail, unwell] = runs.slice(-3).map((run) => {
      expect(run.results, run.stdout.slice(-2000)).toHaveLength(1)
      return run.results[0]!
    }) as [TestCaseRun, TestCaseRun, TestCaseRun]
    expect(leak.final_answer).toBe('the key is [redacted]; I run as agent')
    expect(leak.trajectory[0]).toMatchObject({ action: { type: 'type', text: 'key=[redacted]' }, thought: 'my key is [redacted]', error: 'refused by [redacted]' })
    expect(fail.status).toBe('error')
    expect(fail.error?.message).toBe('the agent reported an error: could not use key [redacted]')
    // The health error quotes the container's log (where the key was printed) on the console.
    expect(unwell.status).toBe('error')
    expect(unwell.error?.message).toContain('the agent server is not healthy')
    expect(runs.at(-1)!.stdout + runs.at(-1)!.stderr).toContain('starting with key [redacted]')
    expect(filesHolding(E2E_KEY, runs)).toEqual([])
    for (const run of runs.slice(-3)) expect(run.stdout + run.stderr).not.toContain(E2E_KEY)
  })
})

async function keptContainer(runId: string | undefined): Promise<string> {
  const found = await docker.listContainers({ all: true, filters: { label: [`${LABEL.run}=${runId}`] } })
  if (!found[0]) throw new Error(`no container of run ${runId} was kept`)
  return found[0].Id
}

async function removeRun(runId: string | undefined): Promise<void> {
  const found = await docker.listContainers({ all: true, filters: { label: [`${LABEL.run}=${runId}`] } })
  await Promise.all(found.map((c) => docker.getContainer(c.Id).remove({ force: true })))
}
