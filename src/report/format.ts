/** Small formatters for the HTML report (and the console's summary): durations, times, counts, image paths, the set-aside notes. */
import type { JudgedWithoutGrader } from '../schema/summary.ts'

/** 850 ms, 2.5 s, 1 min 05 s, 1 h 02 min. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const seconds = ms / 1000
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`
  const totalSeconds = Math.round(seconds)
  const minutes = Math.floor(totalSeconds / 60)
  if (minutes < 60) return `${minutes} min ${String(totalSeconds % 60).padStart(2, '0')} s`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

/** An ISO time as `2026-11-22 08:54:41 UTC` (the report is written once and read anywhere, so UTC). */
export function formatTime(iso: string | null | undefined, zone = true): string {
  if (!iso) return '—'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${date.toISOString().slice(0, 19).replace('T', ' ')}${zone ? ' UTC' : ''}`
}

/** Milliseconds between two ISO times, or null when either is unreadable. */
export function between(startIso: string, endIso: string): number | null {
  const ms = Date.parse(endIso) - Date.parse(startIso)
  return Number.isFinite(ms) && ms >= 0 ? ms : null
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
}

export function formatPercent(fraction: number | null): string {
  if (fraction === null) return '—'
  const percent = fraction * 100
  return `${Number.isInteger(percent) ? percent : percent.toFixed(1)}%`
}

export function formatUsd(usd: number | null): string {
  if (usd === null) return 'no price'
  if (usd === 0) return '$0'
  return usd >= 10 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`
}

/** A 1 / 0 / -1 score in words. */
export function formatScore(score: number): string {
  return score < 0 ? '—' : String(score)
}

/**
 * A path relative to the run folder as an `src`/`href` relative to the report (which sits in
 * the run folder): each segment URL-encoded, so `#`, `?` or `%` in a name cannot break the link.
 */
export function relativeUrl(path: string): string {
  return path
    .split(/[\\/]+/)
    .filter((segment) => segment !== '' && segment !== '.')
    .map(encodeURIComponent)
    .join('/')
}

/** The agent's name from a TestCaseRun's `agent_yaml` (`name: oracle`), for runs without a summary. */
export function agentNameFromYaml(yaml: string): string | null {
  const match = /^name:\s*["']?([^"'\n#]+?)["']?\s*(?:#.*)?$/m.exec(yaml)
  return match?.[1] ?? null
}

/** Why some judged tasks are in neither rate, for a run without a grader; null when none were set aside. */
export function setAsideNote(j: JudgedWithoutGrader): string | null {
  if (j.total === 0) return null
  const tasks = j.total === 1 ? '1 judged task' : `${j.total} judged tasks`
  return `${tasks} set aside: no grader was configured, so a judged check could fail its task but never pass it; in neither rate (${j.failed} failed anyway)`
}

/** Tasks left out of the rates for a fault not of the agent's doing (a killed container, the model API down); null when none. */
export function faultedNote(faulted: number): string | null {
  if (faulted === 0) return null
  return `${faulted} faulted (not the agent's doing), in neither rate`
}
