/**
 * Where a desktop task's sandbox time goes, per app, under the nop agent: each phase of
 * DesktopSandbox.open() (create, start, ready, setup, settle), then what a task does around it
 * (final screenshot, the task's own checks, the failed task's OOM probe, removal), next to the
 * bare sequence (docker run, wait for openbox, start the app and wait for its window, one
 * screenshot, docker rm -f). Rounds alternate harness and bare; the table shows medians (ms).
 * `close` is timed here as DesktopSandbox.close(); a task no longer waits for it (the worker
 * removes its container in the background).
 *
 *   npx tsx scripts/perf/desktop-phases.ts [--rounds 5] [--apps none,xterm,mousepad,galculator,gnumeric,pcmanfm] [--pool 1]
 *
 * `none` is the desktop alone (no setup_cmd); by default every app but it.
 *
 * With --pool N a warm pool of N containers serves the harness's sandboxes (filled before the
 * first round; each round waits until it has refilled, so every take is warm).
 */
import { parseArgs } from 'node:util'
import type Docker from 'dockerode'
import { dockerClient, ensureImage, imageDir, LABEL, removeRunContainers } from '../../src/docker/index.ts'
import { execIn } from '../../src/docker/exec.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { WarmPool } from '../../src/sandbox/desktop/warm-pool.ts'
import type { DesktopObserver } from '../../src/observer/index.ts'
import { expectCalculatorShows, expectChangedOnlyBy, expectEditorSaved, expectWrittenBy, launch, launchApp, type DesktopCheckContext } from '../../src/desktop-helpers/index.ts'

const ROOT = new URL('../..', import.meta.url).pathname
const RUN = `desktop-phases-${process.pid}`

type Shell = (command: string, options?: { as?: 'root' | 'agent' } | number) => Promise<{ stdout: string; stderr: string; exitCode: number }>
/** Checks record nothing here: an expect that accepts anything. */
const expectAnything = (() => new Proxy({}, { get: () => () => undefined })) as never
/** What the task's checks get: the expect above, the observer, the check's shell. */
const checking = (observed: DesktopObserver, shell: Shell): DesktopCheckContext => ({ expect: expectAnything, observed, shell: shell as never })

interface App {
  /** The task it stands for. */
  task: string
  /** The task's setup_cmd when it is not `before`, `prepare` and the app's launch (setupOf). */
  setup?: string
  /** Lines the task's setup runs before the app's own (its shell settings). */
  before?: string[]
  /** The bare sequence: files the app opens, what to start, and the window title to wait for. */
  prepare: string
  command: string
  title: string
  checks: (shell: Shell, observed: DesktopObserver) => Promise<void>
}

/** The setup_cmd as the task declares it: its own lines, the app's files, then the app, waited for. */
function setupOf(app: App): string {
  return app.setup ?? [...(app.before ?? []), ...(app.prepare === ':' ? [] : [app.prepare]), launch(app.command, app.title)].join('\n')
}

const APPS: Record<string, App> = {
  // No app: the desktop alone (container, display, window manager).
  none: {
    task: 'desktop-none',
    setup: '',
    prepare: ':',
    command: '',
    title: '',
    checks: async () => {},
  },
  xterm: {
    task: 'desktop-terminal-hello',
    prepare: ':',
    command: 'xterm',
    title: '^agent@',
    checks: async (shell) => void (await shell('cat /home/agent/hello.txt')),
  },
  mousepad: {
    task: 'desktop-editor-note',
    prepare: 'touch ~/note.txt',
    command: 'mousepad ~/note.txt',
    title: 'Mousepad$',
    checks: async (shell, observed) => {
      await shell('cat /home/agent/note.txt')
      await expectEditorSaved(checking(observed, shell), '/home/agent/note.txt')
    },
  },
  galculator: {
    task: 'desktop-calculator-loan',
    setup: launchApp('galculator'),
    prepare: 'mkdir -p ~/.config/galculator',
    command: 'galculator',
    title: '^galculator$',
    checks: (shell, observed) => expectCalculatorShows(checking(observed, shell), 531.85, { tolerance: 0.01 }),
  },
  gnumeric: {
    task: 'desktop-spreadsheet-totals',
    prepare: "printf 'month,north\\nJan,1\\n' > ~/sales.csv",
    command: 'gnumeric ~/sales.csv',
    title: 'Gnumeric$',
    checks: async (shell, observed) => {
      await shell('cat /home/agent/sales.csv')
      await expectWrittenBy(checking(observed, shell), '/home/agent/sales.csv', 'gnumeric')
    },
  },
  pcmanfm: {
    task: 'desktop-files-rename',
    prepare: "printf 'x\\n' > ~/Documents/report-draft.txt",
    command: 'pcmanfm ~/Documents',
    title: '^Documents$',
    checks: async (shell, observed) => {
      await shell('ls /home/agent/Documents')
      await expectChangedOnlyBy(checking(observed, shell), ['pcmanfm'], 'renamed')
    },
  },
}

type Phases = Record<string, number>

async function harness(docker: Docker, image: string, app: App, pool: WarmPool | null): Promise<Phases> {
  const t0 = performance.now()
  const options = { docker, image, runId: RUN, taskId: app.task, setupCmd: setupOf(app) || null, network: false }
  const desktop = pool ? await pool.open(options) : await DesktopSandbox.open(options)
  const phases: Phases = { ...desktop.timings, open: performance.now() - t0 }
  let mark = performance.now()
  const lap = (name: string) => {
    const now = performance.now()
    phases[name] = now - mark
    mark = now
  }
  // nop: no step. run() starts the observer, ends the agent's turn, then takes the final screenshot.
  await desktop.observer.start()
  lap('observe')
  await desktop.observer.endTurn()
  lap('turn end')
  await desktop.computer.screenshot()
  lap('screenshot')
  const shell: Shell = async (command, options) => {
    const as = typeof options === 'object' ? options.as : undefined
    const result = await desktop.shell(command, 60_000, as ?? 'root')
    return { stdout: result.stdout.toString(), stderr: result.stderr.toString(), exitCode: result.exitCode }
  }
  await app.checks(shell, desktop.observer)
  lap('checks')
  // The task failed (nop): finish() asks whether the container hit its memory limit.
  await desktop.oomKilled()
  lap('oom')
  await desktop.close()
  lap('close')
  phases.total = performance.now() - t0
  return phases
}

/** The bare sequence with plain dockerode, as scripts/perf/bare-desktop.ts does it (same limits, one exec). */
async function bare(docker: Docker, image: string, app: App): Promise<Phases> {
  const t0 = performance.now()
  const container = await docker.createContainer({
    Image: image,
    User: 'agent',
    Labels: { [LABEL.managed]: 'true', [LABEL.run]: RUN },
    Env: ['DISPLAY=:99', 'HOME=/home/agent'],
    HostConfig: {
      Memory: 2048 * 1024 * 1024,
      NanoCpus: 1e9,
      PidsLimit: 512,
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ShmSize: 256 * 1024 * 1024,
      Init: true,
    },
  })
  await container.start()
  const run = (script: string) => execIn(container, ['sh', '-c', script], { user: 'agent', env: { DISPLAY: ':99' }, workingDir: '/home/agent' })
  const title = app.title.replaceAll("'", `'\\''`)
  await run(
    [
      'until [ -e /tmp/openbox-ready ]; do sleep 0.02; done',
      app.prepare,
      ...(app.command
        ? [`${app.command} >/dev/null 2>&1 </dev/null &`, `until xdotool getactivewindow getwindowname 2>/dev/null | grep -qE -- '${title}'; do sleep 0.05; done`]
        : []),
    ].join('\n'),
  )
  const ready = performance.now() - t0
  await run('import -window root png:- >/dev/null')
  await container.remove({ force: true, v: true })
  return { ready, total: performance.now() - t0 }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      apps: { type: 'string', default: Object.keys(APPS).filter((name) => name !== 'none').join(',') },
      pool: { type: 'string', default: '0' },
    },
  })
  const rounds = Number(values.rounds)
  const apps = values.apps.split(',').map((name) => [name, APPS[name] ?? (() => { throw new Error(`no app ${name}`) })()] as const)
  const docker = dockerClient()
  const image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), (line) => console.error(line))
  const size = Number(values.pool)
  const pool = size > 0 ? new WarmPool({ docker, runId: RUN, size }) : null
  const results = new Map<string, { harness: Phases[]; bare: Phases[] }>()
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [name, app] of apps) {
        if (pool) await pool.filled(image)
        const h = await harness(docker, image, app, pool)
        if (pool) await pool.filled(image)
        const b = await bare(docker, image, app)
        const entry = results.get(name) ?? { harness: [], bare: [] }
        entry.harness.push(h)
        entry.bare.push(b)
        results.set(name, entry)
        const ms = (n: number | undefined) => (n === undefined ? '-' : Math.round(n))
        console.error(`round ${round} ${name}: harness open ${ms(h.open)} (${Object.entries(h).filter(([k]) => k !== 'open').map(([k, v]) => `${k} ${ms(v)}`).join(', ')}); bare ready ${ms(b.ready)} total ${ms(b.total)}`)
      }
    }
  } finally {
    await pool?.close()
    await removeRunContainers(docker, RUN)
  }
  const columns = ['take', 'adopt', 'create', 'start', 'ready', 'setup', 'settle', 'open', 'screenshot', 'checks', 'oom', 'close', 'total']
  console.log(`medians of ${rounds} rounds, ms${size > 0 ? ` (warm pool of ${size})` : ''}`)
  console.log(['app', ...columns, 'bare ready', 'bare total', 'open/bare'].join('\t'))
  for (const [name, { harness: h, bare: b }] of results) {
    const m = (rows: Phases[], key: string) => (rows.some((r) => r[key] !== undefined) ? median(rows.map((r) => r[key] ?? 0)) : Number.NaN)
    const cells = columns.map((key) => Math.round(m(h, key)))
    const ratio = (m(h, 'open') / m(b, 'ready')).toFixed(2)
    console.log([name, ...cells, Math.round(m(b, 'ready')), Math.round(m(b, 'total')), ratio].join('\t'))
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
