/**
 * P2: a desktop sandbox with one app, through agentest's DesktopSandbox (open with the task's
 * setup_cmd until it is ready, one screenshot through its computer, close) and bare with plain
 * dockerode (bare-desktop.ts), alternating per app over the rounds. Two rows per app: "ready"
 * (create until the app's window is ready) and the whole sequence. Then, per app, a sandbox
 * from a warm pool (WarmPool, refilled between rounds as a run refills it between tasks): taken
 * until it is ready for the task's setup_cmd, against the goal of 0.3 s, beside a fresh bare
 * container until its display is up. One more row, for information: a whole desktop task under
 * `nop` through vitest against the bare sequence.
 * Correct when every sequence reached the app's window and a 1280x800 PNG, and no container of
 * either side is left.
 */
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import type Docker from 'dockerode'
import { launch } from '../../src/desktop-helpers/index.ts'
import { loadConfig } from '../../src/config/index.ts'
import { dockerClient, ensureImage, imageDir, LABEL } from '../../src/docker/index.ts'
import { DesktopSandbox, type DesktopLimits } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { WarmPool } from '../../src/sandbox/desktop/warm-pool.ts'
import { BARE_LABEL, bareDesktop, type BareApp } from './bare-desktop.ts'
import { timing, type Compare, type CompareOptions, type Comparison } from './comparison.ts'
import { ROOT, timedVitestRun } from './vitest-run.ts'

export const APP_NAMES = ['xterm', 'mousepad'] as const
export type AppName = (typeof APP_NAMES)[number]

interface DesktopApp {
  /** The task whose setup this is (tasks/desktop/<file>) and its id. */
  file: string
  taskId: string
  /** What its setup_cmd does: the bare side does the same; the harness gets the task's setup_cmd. */
  app: BareApp
}

/** The same setup as the tasks declare it (the whole-task row checks xterm's against the record). */
const APPS: Record<AppName, DesktopApp> = {
  xterm: { file: 'terminal-hello.task.ts', taskId: 'desktop-terminal-hello', app: { prepare: null, command: 'xterm', title: '^agent@' } },
  mousepad: { file: 'editor-note.task.ts', taskId: 'desktop-editor-note', app: { prepare: 'touch ~/note.txt', command: 'mousepad ~/note.txt', title: 'Mousepad$' } },
}

const setupCmdOf = ({ app }: DesktopApp) => [...(app.prepare ? [app.prepare] : []), launch(app.command, app.title)].join('\n')

const IMAGE = 'agentest/desktop'
const SCREEN = { width: 1280, height: 800 }

export interface P2Options extends CompareOptions {
  /** Which apps (default: all of APP_NAMES). */
  apps?: AppName[]
  /** The whole-task row through vitest (default true): the slowest part, left out for a quick look. */
  whole?: boolean
  /** The warm-pool rows (default true). */
  pool?: boolean
}

interface Sequence {
  ready_s: number
  whole_s: number
}

/** The bare side also says when its display was up. */
type BareSequence = Sequence & { display_s: number }

/** A pooled sandbox's open(): its own part (take, rename, display check), then the task's setup_cmd. */
interface Pooled {
  pooled_s: number
  setup_s: number
}

/** Labels the bare side's containers with this comparison's id: its leftovers, no one else's. */
const RUN_LABEL = 'agentest.perf.run'

export const compare: Compare<P2Options> = async (options) => {
  const { log } = options
  const apps = options.apps ?? [...APP_NAMES]
  const docker = dockerClient()
  const { config } = loadConfig(ROOT)
  const limits = { memoryMb: config.docker.memory_mb, cpus: config.docker.cpus, pids: config.docker.pids }
  const image = await ensureImage(docker, IMAGE, imageDir(ROOT, IMAGE), (line) => log(`P2: ${line}`))
  const runId = `perf-p2-${randomBytes(3).toString('hex')}`
  const labels = { [RUN_LABEL]: runId }
  const per = new Map(
    apps.map((name) => [name, { harness: [] as Sequence[], bare: [] as BareSequence[], phases: [] as Phases[], problems: [] as string[], pooled: [] as Pooled[], poolProblems: [] as string[] }]),
  )
  const pool = options.pool === false ? null : new WarmPool({ docker, runId, size: 1, limits })
  const whole = { harness: [] as number[], task: [] as number[], bare: [] as number[], problems: [] as string[] }
  const wholeTask = APPS[apps[0]!]
  let left: string[] = []
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const name of apps) {
        const desktop = APPS[name]
        const mine = per.get(name)!
        log(`P2 round ${round}/${options.rounds}: ${name}, harness (DesktopSandbox)…`)
        await attempt(`harness round ${round}`, mine.problems, async () => {
          const { sequence, phases } = await harnessSequence(docker, image, runId, desktop, limits)
          mine.harness.push(sequence)
          mine.phases.push(phases)
        })
        log(`P2 round ${round}/${options.rounds}: ${name}, bare (dockerode)…`)
        await attempt(`bare round ${round}`, mine.problems, async () => {
          const result = await bareDesktop({ docker, image, limits, app: desktop.app, labels })
          checkScreenshot(result.screenshot)
          mine.bare.push(result)
        })
        if (!pool) continue
        log(`P2 round ${round}/${options.rounds}: ${name}, harness from a warm pool…`)
        await attempt(`warm pool round ${round}`, mine.poolProblems, async () => {
          // Filled ahead, as a run fills it before its tasks; the refill is waited for, so it
          // does not start beside the next measurement.
          await pool.filled(image)
          mine.pooled.push(await pooledSequence(pool, docker, image, runId, desktop, limits))
          await pool.filled(image)
        })
      }
      if (options.whole === false) continue
      log(`P2 round ${round}/${options.rounds}: whole ${wholeTask.taskId} under nop (vitest)…`)
      await attempt(`harness whole round ${round}`, whole.problems, async () => {
        const run = await wholeTaskRun(wholeTask, `${runId}-whole-r${round}`)
        whole.harness.push(run.seconds)
        if (run.testsSeconds !== null) whole.task.push(run.testsSeconds)
      })
      await attempt(`bare whole round ${round}`, whole.problems, async () => {
        const result = await bareDesktop({ docker, image, limits, app: wholeTask.app, labels })
        checkScreenshot(result.screenshot)
        whole.bare.push(result.whole_s)
      })
    }
  } finally {
    await pool?.close()
    left = await leftovers(docker, runId)
  }
  const rows: Comparison[] = []
  const letter = (i: number) => String.fromCharCode('a'.charCodeAt(0) + i)
  apps.forEach((name, i) => {
    const mine = per.get(name)!
    const problems = [...mine.problems, ...left]
    const notes = [
      `${IMAGE} (${image}), limits ${limits.memoryMb} MB / ${limits.cpus} CPU / ${limits.pids} pids; harness: DesktopSandbox.open with ${APPS[name].taskId}'s setup_cmd; bare: dockerode create/start, one exec (wait for openbox, start ${name}, wait until its window has the focus), import, remove`,
    ]
    rows.push(row(`P2${letter(2 * i)}`, `${name} desktop: create until the app's window is ready`, mine.harness.map((s) => s.ready_s), mine.bare.map((s) => s.ready_s), problems, [...notes, ...phaseNote(mine.phases)]))
    rows.push(row(`P2${letter(2 * i + 1)}`, `${name} desktop: ready, one screenshot, removed`, mine.harness.map((s) => s.whole_s), mine.bare.map((s) => s.whole_s), [...problems], notes))
  })
  if (pool) {
    apps.forEach((name, i) => {
      const mine = per.get(name)!
      const pooled = mine.pooled.map((p) => p.pooled_s)
      const notes = [
        'a pool of 1 started container, filled before each round; taken, renamed for the task, its display and window manager confirmed by one exec',
        ...(pooled.length ? [`then the task's setup_cmd (${name} started, its window settled) took ${timing(mine.pooled.map((p) => p.setup_s)).median_s.toFixed(2)} s in the pooled container`] : []),
      ]
      const work = `${name} desktop from a warm pool: taken until ready for the task's setup_cmd`
      const compared = row(`P2${letter(2 * apps.length + i)}`, work, pooled, mine.bare.map((b) => b.display_s), [...mine.poolProblems, ...left], notes)
      const met = pooled.length > 0 && compared.harness.median_s <= 0.3
      rows.push({ ...compared, bare_label: 'bare dockerode, a fresh container until its display is up', goal: '≤ 0.3 s', met })
    })
  }
  if (options.whole !== false) {
    const notes = [
      'for information: vitest start-up, global setup (image check, leftovers), the task with its checks, reporters and teardown, against the bare ready-screenshot-remove sequence',
      ...(whole.task.length ? [`vitest's "tests" time (sandbox, nop, checks, record) ${timing(whole.task).median_s.toFixed(2)} s of the run's ${timing(whole.harness).median_s.toFixed(2)} s`] : []),
    ]
    rows.push({ ...row(`P2${letter((pool ? 3 : 2) * apps.length)}`, `whole task ${wholeTask.taskId} under nop through vitest`, whole.harness, whole.bare, [...whole.problems, ...left], notes), goal: '—', met: true })
  }
  return rows
}

/** DesktopSandbox's per-phase times when it has them (an addition in progress there, so read loosely). */
type Phases = Partial<Record<string, number>>

/** The whole task through vitest under nop: its wall time, once it failed as nop must (its checks ran). */
async function wholeTaskRun(task: DesktopApp, runId: string): Promise<{ seconds: number; testsSeconds: number | null }> {
  const run = await timedVitestRun([`tasks/desktop/${task.file}`, '--maxWorkers=1'], { AGENTEST_AGENT: 'nop', AGENTEST_CACHE: 'refresh' }, runId)
  try {
    const record = run.folder?.records.find((r) => r.run.id === task.taskId)?.run
    if (!record) throw new Error(`no record of ${task.taskId} (vitest exit ${run.code}): ${run.tail}`)
    if (record.status !== 'failed') throw new Error(`${task.taskId} ${record.status} under nop${record.error ? `: ${record.error.message}` : ''}`)
    if (record.setup_cmd !== setupCmdOf(task)) throw new Error(`${task.taskId}'s setup_cmd is not the one P2 runs: update APPS in scripts/perf/p2-desktop.ts`)
    return { seconds: run.seconds, testsSeconds: run.testsSeconds }
  } finally {
    rmSync(run.resultsDir, { recursive: true, force: true })
  }
}

function row(id: string, work: string, harness: number[], bare: number[], problems: string[], notes: string[]): Comparison {
  const h = timing(harness)
  const b = timing(bare)
  const ratio = h.median_s > 0 && b.median_s > 0 ? h.median_s / b.median_s : 0
  return { id, work, unit: 's', harness: h, bare: b, bare_label: 'bare dockerode', ratio, goal: '≤ 1.3x', met: ratio > 0 && ratio <= 1.3, problems, notes }
}

/** agentest's side: open with the task's setup_cmd, one screenshot, close. */
async function harnessSequence(docker: Docker, image: string, runId: string, desktop: DesktopApp, limits: { memoryMb: number; cpus: number; pids: number }) {
  const started = performance.now()
  const sandbox = await DesktopSandbox.open({ docker, image, runId, taskId: desktop.taskId, setupCmd: setupCmdOf(desktop), network: false, limits })
  const ready_s = (performance.now() - started) / 1000
  try {
    checkScreenshot(await sandbox.computer.screenshot())
  } finally {
    await sandbox.close()
  }
  return { sequence: { ready_s, whole_s: (performance.now() - started) / 1000 }, phases: { ...(sandbox as { timings?: Phases }).timings } }
}

/** agentest's side from a warm pool: open (take, rename, setup_cmd), one screenshot, close. */
async function pooledSequence(pool: WarmPool, docker: Docker, image: string, runId: string, desktop: DesktopApp, limits: DesktopLimits): Promise<Pooled> {
  const started = performance.now()
  const sandbox = await pool.open({ docker, image, runId, taskId: desktop.taskId, setupCmd: setupCmdOf(desktop), network: false, limits })
  const open_s = (performance.now() - started) / 1000
  try {
    if (sandbox.timings.take === undefined) throw new Error('the pool had no started container ready: the sandbox was a fresh one')
    checkScreenshot(await sandbox.computer.screenshot())
  } finally {
    await sandbox.close()
  }
  const setup_s = ((sandbox.timings.setup ?? 0) + (sandbox.timings.settle ?? 0)) / 1000
  return { pooled_s: open_s - setup_s, setup_s }
}

/** A PNG of the whole screen, or an error saying what came instead. */
function checkScreenshot(png: Buffer): void {
  const signature = png.subarray(0, 8).toString('hex')
  if (signature !== '89504e470d0a1a0a') throw new Error(`the screenshot is not a PNG (${png.length} bytes)`)
  const width = png.readUInt32BE(16)
  const height = png.readUInt32BE(20)
  if (width !== SCREEN.width || height !== SCREEN.height) throw new Error(`the screenshot is ${width}x${height}, not ${SCREEN.width}x${SCREEN.height}`)
}

async function attempt(what: string, problems: string[], work: () => Promise<void>): Promise<void> {
  try {
    await work()
  } catch (error) {
    problems.push(`${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
}

/** Containers either side left behind: each is a problem, and is removed. */
async function leftovers(docker: Docker, runId: string): Promise<string[]> {
  const found = [
    ...(await docker.listContainers({ all: true, filters: { label: [`${BARE_LABEL.key}=${BARE_LABEL.value}`, `${RUN_LABEL}=${runId}`] } })),
    ...(await docker.listContainers({ all: true, filters: { label: [LABEL.run] } })).filter((c) => c.Labels[LABEL.run]?.startsWith(runId)),
  ]
  await Promise.all(found.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)))
  return found.map((c) => `left behind: container ${c.Names[0]?.replace(/^\//, '') ?? c.Id.slice(0, 12)}`)
}

/** Where the harness's open() spends its time, as a mean per phase. */
function phaseNote(phases: Phases[]): string[] {
  if (phases.length === 0) return []
  const keys = [...new Set(phases.flatMap((p) => Object.keys(p)))]
  if (keys.length === 0) return []
  const mean = (key: string) => phases.reduce((sum, p) => sum + (p[key] ?? 0), 0) / phases.length / 1000
  return [`harness open() phases (mean): ${keys.map((k) => `${k} ${mean(k).toFixed(2)} s`).join(', ')}`]
}
