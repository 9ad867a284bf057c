/** Notes for the concurrency rows: where the CPU, the memory and the time beyond the model went. */
import { availableParallelism } from 'node:os'
import type { ChildRun } from './concurrency-child.ts'
import type { BareOutcome } from './concurrency-bare.ts'
import type { HarnessOutcome } from './concurrency-harness.ts'
import type { KindMemory, TreeMemory } from './memory.ts'

const mb = (value: number) => `${Math.round(value)} MB`

const byKind = (kinds: Record<string, KindMemory>, what: 'rss_mb' | 'pss_mb' = 'rss_mb') =>
  Object.entries(kinds)
    .sort(([, a], [, b]) => (b[what] ?? 0) - (a[what] ?? 0))
    .map(([kind, k]) => `${kind} ×${k.count} ${mb(k[what] ?? 0)}`)
    .join(', ')

export function describeCpu(label: string, run: ChildRun): string {
  const cores = availableParallelism()
  const sampled = Object.values(run.memory.cpu_by_kind).reduce((sum, s) => sum + s, 0)
  const machine = run.machine_capacity_s > 0 ? (run.machine_busy_s / run.machine_capacity_s) * cores * 100 : 0
  const kinds = Object.entries(run.memory.cpu_by_kind)
    .sort(([, a], [, b]) => b - a)
    .filter(([, seconds]) => seconds >= 0.5)
    .map(([kind, seconds]) => `${kind} ${seconds.toFixed(0)} s`)
  const pct = (seconds: number) => `${((seconds / run.wall_s) * 100).toFixed(0)}%`
  return (
    `${label} ${run.wall_s.toFixed(1)} s: its processes used ${sampled.toFixed(0)} CPU s = ${pct(sampled)} of ${cores * 100}% ` +
    `(${kinds.join(', ')}); the scripted server ${pct(run.self_cpu_s)}; the whole machine (other users included) was busy ${machine.toFixed(0)}%`
  )
}

export function describeMemory(label: string, memory: TreeMemory, bare: TreeMemory | null, concurrency: number): string[] {
  const tasks = Math.max(1, concurrency)
  const lines = [
    `${label}: harness peak RSS ${mb(memory.peak_rss_mb)} = ${mb(memory.peak_rss_mb / tasks)} per task at ${concurrency} at once ` +
      `(model conversations in flight then: ${memory.in_flight_at_peak ?? '?'}, at most ${memory.max_in_flight ?? '?'}); ` +
      `peak PSS ${memory.peak_pss_mb === null ? '—' : `${mb(memory.peak_pss_mb)} = ${mb(memory.peak_pss_mb / tasks)} per task`}`,
    `${label}: harness at its RSS peak: ${byKind(memory.peak_by_kind)}`,
    `${label}: harness PSS at its PSS peak: ${byKind(memory.peak_pss_by_kind, 'pss_mb')}`,
    `${label}: ${memory.samples} samples, each ${memory.sample_ms.mean.toFixed(0)} ms on average (longest ${memory.sample_ms.max.toFixed(0)} ms, PSS every 10th)`,
  ]
  if (bare) {
    lines.push(
      `${label}: bare peak RSS ${mb(bare.peak_rss_mb)} = ${mb(bare.peak_rss_mb / tasks)} per task, PSS ${bare.peak_pss_mb === null ? '—' : mb(bare.peak_pss_mb)}; ${byKind(bare.peak_by_kind)}`,
      `${label}: bare PSS at its PSS peak: ${byKind(bare.peak_pss_by_kind, 'pss_mb')}`,
    )
  }
  return lines
}

/** Vitest's own account of a run: its Duration line (import and transform are summed over workers). */
export function vitestDuration(stdout: string): string | null {
  const line = /Duration\s+(.*)$/m.exec(stdout)?.[1]
  return line ? `vitest: Duration ${line.trim()} (import and tests are summed over the workers)` : null
}

/** Seconds per model call beyond the model's own reply time: the browser, the screenshot, the harness. */
export function stepOverhead(harness: HarnessOutcome, bare: BareOutcome | null, delayMs: number): string {
  const delay = delayMs / 1000
  const ran = harness.records.filter((r) => r.trajectory.length > 0)
  let extra = 0
  let calls = 0
  let seconds = 0
  for (const record of ran) {
    const n = record.trajectory.filter((s) => s.action.type !== 'message').length + 1
    extra += record.duration_ms / 1000 - n * delay
    calls += n
    seconds += record.duration_ms / 1000
  }
  const spawned = harness.run.spawned_at
  const ready = harness.records.map((r) => Date.parse(r.started_at) - spawned)
  const ended = harness.records.map((r) => Date.parse(r.finished_at) - spawned)
  const parts = [
    ready.length
      ? `harness: first sandbox ready ${(Math.min(...ready) / 1000).toFixed(1)} s after spawn, last task ended at ${(Math.max(...ended) / 1000).toFixed(1)} s, exit at ${harness.run.wall_s.toFixed(1)} s`
      : 'harness: no task records',
    `harness tasks (sandbox ready to end) ${(seconds / Math.max(1, ran.length)).toFixed(1)} s on average, ${(extra / Math.max(1, calls)).toFixed(2)} s per model call beyond the model`,
  ]
  const results = bare?.output?.results ?? []
  if (results.length) {
    const bareExtra = results.reduce((sum, r) => sum + r.duration_s - r.calls * delay, 0)
    const bareCalls = results.reduce((sum, r) => sum + r.calls, 0)
    const mean = results.reduce((sum, r) => sum + r.duration_s, 0) / results.length
    parts.push(`bare tasks (new context to end) ${mean.toFixed(1)} s, ${(bareExtra / Math.max(1, bareCalls)).toFixed(2)} s per call beyond the model`)
  }
  return parts.join('; ')
}
