/**
 * Samples the memory of a process tree (a `vitest run` and everything it started, Chromium
 * included) from /proc: the RSS sum every interval, its peak, and what was in flight then.
 * RSS sums count pages shared between processes once per process (Chromium's and Node's shared
 * libraries); PSS, read less often because it is slower, splits them and does not.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { SampleMessage } from './memory-worker.ts'
import { commandLine, descendants, processName, procStat, pssKb, rssKb, uptimeSeconds } from './proc.ts'

export interface KindMemory {
  count: number
  rss_mb: number
  /** Set on samples that read PSS. */
  pss_mb?: number
}

export interface TreeSample {
  /** Since the sampler started. */
  at_ms: number
  rss_mb: number
  /** Null on samples that did not read PSS. */
  pss_mb: number | null
  processes: number
  in_flight: number | null
  by_kind: Record<string, KindMemory>
}

export interface TreeMemory {
  samples: number
  peak_rss_mb: number
  peak_pss_mb: number | null
  /** Tasks in flight at the RSS peak, and the most at any sample. */
  in_flight_at_peak: number | null
  max_in_flight: number | null
  /** The peak sample's processes, by kind (vitest worker, chromium renderer, ...). */
  peak_by_kind: Record<string, KindMemory>
  /** The same for the sample with the most PSS. */
  peak_pss_by_kind: Record<string, KindMemory>
  /** The peak sample. */
  peak: TreeSample | null
  /** CPU seconds by kind of process, as last seen alive (a process's last half second before it exited is missed). */
  cpu_by_kind: Record<string, number>
  /** What sampling cost this process: the mean and longest time one sample took, ms. */
  sample_ms: { mean: number; max: number }
}

export interface SamplerOptions {
  intervalMs?: number
  /** Read PSS on every n-th sample (10 by default: it costs about 1 ms per process, and this process serves the model); 0 for never. */
  pssEvery?: number
  /** How many tasks are in flight now, when the caller knows. */
  inFlight?: () => number
  /** Called with each sample, e.g. to stop a run that outgrows a memory cap. */
  onSample?: (sample: TreeSample, pids: number[]) => void
}

/** What a process is, for the breakdown: the tree's root, a Chromium process by type, a Vitest worker, or its script. */
export function processKind(pid: number, root: number): string {
  if (pid === root) return 'root'
  const cmd = commandLine(pid)
  // Chromium's helpers re-exec /proc/self/exe with --type=renderer, zygote, gpu-process, utility.
  const type = /--type=(\S+)/.exec(cmd)?.[1]
  if (type) return `chromium ${type}`
  if (/chrom(e|ium)[^/]*$/.test(cmd.split(' ')[0] ?? '')) return 'chromium browser'
  if (/vitest/.test(cmd)) return 'vitest worker'
  const script = cmd.split(' ').find((part) => /\.(m?[jt]s)$/.test(part))
  if (script) return `node ${script.split('/').slice(-2).join('/')}`
  // Chromium's zygotes rewrite their command line; the short name still says what they are.
  return cmd.split(' ')[0] || `(${processName(pid)})`
}

/**
 * Kinds by pid and start time. A command line is read once a process is a second old: before
 * that it may still show its parent's (fork, then exec), and reading one takes the process's
 * memory lock, which a busy Chromium can hold for a long time.
 */
export class KindCache {
  private readonly known = new Map<string, string>()

  kind(pid: number, root: number, started_s: number, now_s: number): string {
    const key = `${pid}:${started_s}`
    const cached = this.known.get(key)
    if (cached) return cached
    const kind = processKind(pid, root)
    if (now_s - started_s > 1) this.known.set(key, kind)
    return kind
  }
}

/** One reading of the tree's memory. */
export function sampleTree(
  root: number,
  options: { pss: boolean; inFlight?: () => number; startedAt: number; cpu?: Map<number, { kind: string; seconds: number }>; kinds?: KindCache },
): {
  sample: TreeSample
  pids: number[]
} {
  const pids = descendants(root)
  const now = uptimeSeconds()
  let rss = 0
  let pss = 0
  const byKind: Record<string, KindMemory> = {}
  for (const pid of pids) {
    const kb = rssKb(pid)
    const stat = procStat(pid)
    if (kb === null || stat === null) continue
    rss += kb
    const pssOf = options.pss ? (pssKb(pid) ?? 0) : 0
    pss += pssOf
    const kind = options.kinds ? options.kinds.kind(pid, root, stat.started_s, now) : processKind(pid, root)
    options.cpu?.set(pid, { kind, seconds: stat.cpu_s })
    const entry = (byKind[kind] ??= { count: 0, rss_mb: 0 })
    entry.count++
    entry.rss_mb += kb / 1024
    if (options.pss) entry.pss_mb = (entry.pss_mb ?? 0) + pssOf / 1024
  }
  return {
    sample: {
      at_ms: Date.now() - options.startedAt,
      rss_mb: rss / 1024,
      pss_mb: options.pss ? pss / 1024 : null,
      processes: pids.length,
      in_flight: options.inFlight ? options.inFlight() : null,
      by_kind: byKind,
    },
    pids,
  }
}

/**
 * Samples a tree on an interval until stopped, in a thread of its own (memory-worker.ts) so that
 * slow /proc reads never hold up this process; `stop()` gives the peak and what made it.
 */
export class TreeSampler {
  private readonly samples: TreeSample[] = []
  private readonly cpu = new Map<number, { kind: string; seconds: number }>()
  private readonly costs: number[] = []
  private worker: Worker | null = null
  /** The tree's pids at the last sample (to stop every one of them if need be). */
  lastPids: number[] = []

  constructor(
    private readonly root: number,
    private readonly options: SamplerOptions = {},
  ) {}

  start(): this {
    const settings = { root: this.root, intervalMs: this.options.intervalMs ?? 500, pssEvery: this.options.pssEvery ?? 10 }
    this.worker = new Worker(bootstrap(), { eval: true, workerData: settings })
    this.worker.on('message', (message: SampleMessage) => this.received(message))
    this.worker.on('error', (error) => {
      process.stderr.write(`memory sampler: ${error.message}\n`)
      this.worker = null
    })
    return this
  }

  /** Resolves once the first sample is in (tests wait for it). */
  async ready(): Promise<void> {
    while (this.worker && this.costs.length === 0) await new Promise((done) => setTimeout(done, 20))
  }

  private received({ sample, pids, cpu, cost_ms }: SampleMessage): void {
    this.costs.push(cost_ms)
    for (const [pid, entry] of cpu) this.cpu.set(pid, entry)
    if (pids.length === 0) return
    sample.in_flight = this.options.inFlight ? this.options.inFlight() : null
    this.lastPids = pids
    this.samples.push(sample)
    this.options.onSample?.(sample, pids)
  }

  stop(): TreeMemory {
    void this.worker?.terminate()
    this.worker = null
    const cpu: Record<string, number> = {}
    for (const { kind, seconds } of this.cpu.values()) cpu[kind] = (cpu[kind] ?? 0) + seconds
    const mean = this.costs.length ? this.costs.reduce((a, b) => a + b, 0) / this.costs.length : 0
    return { ...summarize(this.samples), cpu_by_kind: cpu, sample_ms: { mean, max: Math.max(0, ...this.costs) } }
  }
}

/** The thread's first lines: load memory-worker.ts through tsx's API (a thread does not take the parent's loader). */
function bootstrap(): string {
  const tsx = dirname(createRequire(import.meta.url).resolve('tsx/package.json'))
  const api = pathToFileURL(join(tsx, 'dist/esm/api/index.mjs')).href
  const file = new URL('./memory-worker.ts', import.meta.url).href
  return `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(file)}))`
}

export function summarize(samples: readonly TreeSample[]): Omit<TreeMemory, 'cpu_by_kind' | 'sample_ms'> {
  let peak: TreeSample | null = null
  for (const sample of samples) if (!peak || sample.rss_mb > peak.rss_mb) peak = sample
  const pss = samples.flatMap((s) => (s.pss_mb === null ? [] : [s.pss_mb]))
  let pssPeak: TreeSample | null = null
  for (const sample of samples) if (sample.pss_mb !== null && (!pssPeak || sample.pss_mb > pssPeak.pss_mb!)) pssPeak = sample
  const flights = samples.flatMap((s) => (s.in_flight === null ? [] : [s.in_flight]))
  return {
    samples: samples.length,
    peak_rss_mb: peak?.rss_mb ?? 0,
    peak_pss_mb: pss.length ? Math.max(...pss) : null,
    in_flight_at_peak: peak?.in_flight ?? null,
    max_in_flight: flights.length ? Math.max(...flights) : null,
    peak_by_kind: peak?.by_kind ?? {},
    peak_pss_by_kind: pssPeak?.by_kind ?? {},
    peak,
  }
}

