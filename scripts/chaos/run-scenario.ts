import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { dockerClient, LABEL } from '../../src/docker/index.ts'
import { CHILD_RUN_ENV } from '../../src/runs/vitest-child.ts'
import { TestCaseRun } from '../../src/schema/run.ts'
import { RunSummary } from '../../src/schema/summary.ts'
import { recordKey } from '../../src/schema/task.ts'
import { isFaultKind } from '../../src/faults/kinds.ts'

export const ROOT = resolve(import.meta.dirname, '../..')
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

/** What a fault injector may look at and act on while the run goes. */
export interface RunHandle {
  /** The run's main process; its process group is the run (as a terminal's Ctrl-C reaches it). */
  pid: number
  runDir(): string | null
  /** Records written so far. */
  finished(): string[]
  /** A task with a step on disk and no record yet: it is in flight. */
  inFlight(): string | null
}

export interface Scenario {
  /** The fault, as the table shows it. */
  fault: string
  /** Part of the fast form that `npm test` runs. */
  fast: boolean
  needsDocker: boolean
  /** Why the fault cannot be injected on this machine, or null when it can. */
  unavailable?(): string | null
  /** Task files, one task each. */
  tasks: string[]
  /** The outcome the tasks the fault reached must be recorded with (any of them, when several tell the truth). */
  expect: string | string[]
  /** Whether the fault stops the run early (a signal, a worker's death): the summary must say so. */
  stopsRun: boolean
  /** Starts what the scenario needs (servers) and gives the run's environment. */
  prepare?(): Promise<Prepared>
  /** Injects the fault while the run goes; `prepared` is what `prepare` started. */
  inject(run: RunHandle, prepared: Prepared): Promise<void>
}

export interface Prepared {
  env: Record<string, string>
  /** Breaks what `prepare` started (stops a server), for `inject` to call. */
  breakIt?(): Promise<void>
  /** Puts things right before the same command runs again (restarts a server, heals a model). */
  heal?(): Promise<void>
  close(): Promise<void>
}

export interface ChaosRow {
  fault: string
  tasks: number
  affected: number
  outcome: string
  leaked: number
  resumed: boolean
  problems: string[]
}

interface RunResult {
  code: number | null
  output: string
  runDir: string | null
  records: TestCaseRun[]
  summary: RunSummary | null
}

/**
 * One fault: the run with the fault injected, the checks that nothing was lost (one record per
 * task or a count of it as not started, the summary adding up, the fault's own outcome) and
 * nothing leaked (no container or network of the run left), then the same command again, which
 * must finish the run with the tasks that passed reused and the faulted ones run afresh.
 */
export async function runScenario(scenario: Scenario, log: (line: string) => void = () => {}): Promise<ChaosRow> {
  const problems: string[] = []
  const resultsDir = mkdtempSync(join(tmpdir(), 'agentest-chaos-'))
  const prepared = (await scenario.prepare?.()) ?? { env: {}, close: async () => {} }
  try {
    log(`chaos: ${scenario.fault}: running ${scenario.tasks.length} tasks with the fault injected`)
    const first = await runOnce(scenario, prepared, resultsDir, true)
    const ids = first.records.map(recordKey)
    if (new Set(ids).size !== ids.length) problems.push(`duplicate records: ${ids.join(', ')}`)
    const stop = first.summary?.interrupted
    const notStarted = (stop?.not_started ?? 0) + (stop?.files_not_started ?? 0)
    if (!first.summary) problems.push('no summary.json was written')
    else if (first.summary.totals.total !== first.records.length) problems.push(`the summary counts ${first.summary.totals.total} tasks, the folder holds ${first.records.length} records`)
    if (first.records.length + notStarted !== scenario.tasks.length) {
      problems.push(`${first.records.length} records + ${notStarted} not started ≠ ${scenario.tasks.length} tasks`)
    }
    if (scenario.stopsRun && !stop) problems.push('the summary does not say the run was interrupted')
    const expected = [scenario.expect].flat()
    const affected = first.records.filter((r) => expected.includes(r.error?.kind ?? ''))
    if (affected.length === 0) problems.push(`no task recorded ${expected.join(' or ')} (got: ${outcomes(first.records) || 'no records'})`)
    const runId = first.runDir ? first.runDir.split('/').pop()! : null
    const leaked = runId ? await leftovers(runId) : 0
    if (leaked > 0) problems.push(`${leaked} container(s)/network(s) of run ${runId} left`)

    await prepared.heal?.()
    log(`chaos: ${scenario.fault}: the same command again`)
    const again = await runOnce(scenario, prepared, resultsDir, false)
    const passedBefore = new Set(first.records.filter((r) => r.status === 'passed').map(recordKey))
    const faulted = new Set(affected.map(recordKey))
    const byKey = new Map(again.records.map((r) => [recordKey(r), r]))
    if (again.records.length !== scenario.tasks.length) problems.push(`the resumed run has ${again.records.length} records for ${scenario.tasks.length} tasks`)
    if (again.summary?.interrupted) problems.push('the resumed run says it was interrupted')
    for (const key of passedBefore) if (byKey.get(key)?.cached !== true) problems.push(`${key} passed before but was not reused`)
    for (const key of faulted) if (byKey.get(key)?.cached !== false) problems.push(`${key} ended in ${expected.join(' or ')} but was reused`)
    const againLeaked = again.runDir ? await leftovers(again.runDir.split('/').pop()!) : 0
    if (againLeaked > 0) problems.push(`${againLeaked} container(s) of the resumed run left`)
    const resumed = again.records.length === scenario.tasks.length && !again.summary?.interrupted
    return { fault: scenario.fault, tasks: scenario.tasks.length, affected: affected.length, outcome: outcomes(first.records), leaked: leaked + againLeaked, resumed, problems }
  } finally {
    await prepared.close()
  }
}

/** The outcomes of a run's records, counted: "passed 1 · aborted 1". */
function outcomes(records: TestCaseRun[]): string {
  const counts = new Map<string, number>()
  for (const r of records) {
    // A fault by its kind (a failed task can be one: out_of_memory); the agent's outcomes by status.
    const name = r.error && (r.status !== 'failed' || isFaultKind(r.error.kind)) ? r.error.kind : r.status
    counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return [...counts].map(([name, n]) => `${name} ${n}`).join(' · ')
}

async function runOnce(scenario: Scenario, prepared: Prepared, resultsDir: string, inject: boolean): Promise<RunResult> {
  const { env } = prepared
  const before = new Set(readdirSync(resultsDir))
  // Its own process group, as a terminal runs a command: a signal to the group reaches every worker.
  const child = spawn(process.execPath, [VITEST, 'run', '--project', 'benchmark', '--maxWorkers=1', ...scenario.tasks], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ...CHILD_RUN_ENV, CI: 'true', NO_COLOR: '1', AGENTEST_RESULTS_DIR: resultsDir, AGENTEST_PROGRESS_MS: '0', AGENTEST_AGENT: 'oracle', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const closed = new Promise<number | null>((done) => child.on('close', done))
  const runDir = () => {
    const fresh = readdirSync(resultsDir).filter((name) => !before.has(name) && !name.startsWith('.'))
    return fresh[0] ? join(resultsDir, fresh[0]) : null
  }
  const handle: RunHandle = {
    pid: child.pid!,
    runDir,
    finished: () => {
      const dir = runDir()
      return dir ? readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'summary.json') : []
    },
    inFlight: () => {
      const dir = runDir()
      if (!dir) return null
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory() || existsSync(join(dir, `${entry.name}.json`))) continue
        if (readdirSync(join(dir, entry.name)).some((f) => f.startsWith('step-'))) return entry.name
      }
      return null
    },
  }
  const guard = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 600_000)
  try {
    if (inject) await Promise.race([scenario.inject(handle, prepared), closed])
    const code = await closed
    const dir = runDir()
    return { code, output, runDir: dir, ...(dir ? readRun(dir) : { records: [], summary: null }) }
  } finally {
    clearTimeout(guard)
  }
}

function readRun(dir: string): Pick<RunResult, 'records' | 'summary'> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'summary.json')
  const records = files.map((f) => TestCaseRun.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))))
  const summaryFile = join(dir, 'summary.json')
  const summary = existsSync(summaryFile) ? RunSummary.parse(JSON.parse(readFileSync(summaryFile, 'utf8'))) : null
  return { records, summary }
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // Already gone.
  }
}

/** Waits until `ready` holds (polling), or gives up after `ms`. */
export async function until(ready: () => boolean | Promise<boolean>, ms = 240_000): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) if (await ready()) return
  throw new Error(`chaos: the condition was not met within ${ms} ms`)
}

/** Containers and networks of the run still there once its reaper had time to sweep. */
async function leftovers(runId: string): Promise<number> {
  const docker = dockerClient()
  const ok = await docker.ping().then(() => true, () => false)
  if (!ok) return 0
  const count = async () => {
    const filters = { label: [`${LABEL.run}=${runId}`] }
    const [containers, networks] = await Promise.all([docker.listContainers({ all: true, filters }), docker.listNetworks({ filters })])
    return containers.length + networks.length
  }
  for (let waited = 0; waited < 30_000; waited += 1_000) {
    if ((await count()) === 0) return 0
    await sleep(1_000)
  }
  return count()
}
