import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { LEADERBOARD_HTML, writeLeaderboard } from '../src/leaderboard/index.ts'
import type { Reporter, SerializedError, TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node'
import { orphanKind, orphanRecords, stopCause, type StopCause } from '../src/task/orphans.ts'
import type { StopSignal } from '../plugin/interrupt.ts'
import type { ResolvedRun } from '../src/schema/config.ts'
import type { TestCaseRun } from '../src/schema/run.ts'
import type { RerunFaulted, RunSummary, Tally } from '../src/schema/summary.ts'
import type { EpochReduction } from '../src/schema/epochs.ts'
import { ChallengeType, Level, recordKey } from '../src/schema/task.ts'
import { summarize } from '../src/runs/summarize.ts'
import { faultsInRates } from '../src/runs/rerun.ts'
import { toTestCaseRun } from './to-testcase-run.ts'
import { writeJsonAtomic } from '../src/files/atomic.ts'
import { writeRecordsReport } from '../src/report/write.ts'
import { faultedNote, setAsideNote } from '../src/report/format.ts'

/** Collects every task's result and writes `summary.json` plus a table on the console. */
export default class SummaryReporter implements Reporter {
  private readonly runs = new Map<string, TestCaseRun>()
  private readonly startedAt = new Date()
  private vitest: Vitest | null = null

  private readonly recorded = new Set<string>()
  private specifications = 0

  /**
   * `loadCheck`: a run that ended on a task file's mistake gets no summary, only that mistake.
   * `interrupt`: the run's signal handler, which says whether (and how) the run was stopped.
   */
  constructor(
    private readonly run: ResolvedRun,
    private readonly loadCheck: { readonly problems: readonly string[] } = { problems: [] },
    private readonly interrupt: { readonly signal: StopSignal | null } = { signal: null },
    /** The benchmark's project: another project's files filtered by -t (the framework's tests) are not tasks. */
    private readonly project: string | null = null,
  ) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.specifications = specifications.length
  }

  onTestCaseResult(test: TestCase): void {
    const record = toTestCaseRun(test, this.run)
    if (!record) return
    this.runs.set(recordKey(record), record)
    this.recorded.add(test.id)
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError> = []): Promise<void> {
    if (this.loadCheck.problems.length > 0) return
    const pattern = this.vitest?.config.testNamePattern
    const taskModules = this.project === null ? modules : modules.filter((m) => m.project.name === this.project)
    if (this.runs.size === 0 && pattern && taskModules.length > 0) {
      // Every task was filtered out: most likely a mistyped id, which must not pass silently.
      process.stderr.write(`agentest: no task matches -t ${String(pattern)} (task names start with their id, e.g. -t 'omnizon-3\\b')\n`)
      process.exitCode = 1
    }
    const cause = stopCause(this.interrupt.signal, errors)
    if (cause) for (const record of orphanRecords(modules, this.recorded, this.run, orphanKind(cause))) this.runs.set(recordKey(record), record)
    const interrupted = cause ? notStarted(modules, this.recorded, this.run, this.specifications, cause) : undefined
    if (this.runs.size === 0 && !interrupted) return
    const summary = { ...buildSummary([...this.runs.values()], this.run, this.startedAt), ...(interrupted ? { interrupted } : {}) }
    await writeJsonAtomic(join(this.run.results_path, 'summary.json'), summary)
    const log = (line: string) => (this.vitest ? this.vitest.logger.log(line) : console.log(line))
    for (const line of renderTable(summary)) log(line)
    if (this.vitest?.config.mergeReports) {
      const missing = missingEvidence([...this.runs.values()], this.run.results_path)
      if (missing.length) {
        log(`  warning: ${missing.length} screenshot/evidence file(s) of the merged tasks are not in ${this.run.results_path} (${missing[0]}, ...):`)
        log(`  copy each shard's ${this.run.run_id}/ folder here before merging; the records are complete either way`)
      }
    }
    const report = await writeRecordsReport(this.run.results_path, [...this.runs.values()], summary).catch((error: unknown) => {
      log(`  the HTML report could not be written: ${error instanceof Error ? error.message : String(error)}`)
      return null
    })
    log(`  results: ${this.run.results_path}${report ? ` · report: ${report}` : ''}`)
    for (const line of resumeLines(summary)) log(line)
    await this.refreshLeaderboard(log)
  }

  /** A results folder that has a leaderboard (`npm run leaderboard` made one) gets it rewritten with this run in it. */
  private async refreshLeaderboard(log: (line: string) => void): Promise<void> {
    const resultsDir = dirname(this.run.results_path)
    if (!existsSync(join(resultsDir, LEADERBOARD_HTML))) return
    const warnings: string[] = []
    await writeLeaderboard(resultsDir, (line) => warnings.push(line)).then(
      (written) => log(`  leaderboard: ${written.html}${warnings.length ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'}: npm run leaderboard shows them)` : ''}`),
      (error: unknown) => log(`  the leaderboard could not be rewritten: ${error instanceof Error ? error.message : String(error)}`),
    )
  }
}

/**
 * What an interrupt left undone: tests of loaded files that never ran (Vitest skips them with
 * the cancel's note; a test filtered out by -t is skipped without one), and task files that
 * were never loaded at all.
 */
function notStarted(modules: ReadonlyArray<TestModule>, recorded: ReadonlySet<string>, run: ResolvedRun, specifications: number, cause: StopCause): NonNullable<RunSummary['interrupted']> {
  let tasks = 0
  let loaded = 0
  for (const module of modules) {
    const tests = [...module.children.allTests()]
    if (tests.length > 0) loaded++
    for (const test of tests) {
      if (recorded.has(test.id) || !test.meta().agentest) continue
      const result = test.result()
      // In flight when the worker died: recorded from the disk, not "not started".
      if (result.state === 'pending' && existsSync(join(run.results_path, recordKey(test.meta().agentest!.task)))) continue
      if (result.state === 'pending' || (result.state === 'skipped' && /aborted|cancel/i.test(result.note ?? ''))) tasks++
    }
  }
  return { cause, not_started: tasks, files_not_started: Math.max(0, specifications - loaded) }
}

/** How a stop is named on the console and in the report. */
export const STOP_CAUSES: Record<StopCause, string> = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM', worker_died: 'a Vitest worker that died' }

/** After an interrupted run: what it left, and that the same command finishes it. */
export function resumeLines(summary: RunSummary): string[] {
  const stop = summary.interrupted
  if (!stop) return []
  const how = STOP_CAUSES[stop.cause]
  const cutOff = summary.totals.aborted + (summary.totals.faults.worker_killed ?? 0)
  const finished = summary.totals.total - cutOff
  const files = stop.files_not_started ? ` (and ${stop.files_not_started} task file${stop.files_not_started === 1 ? '' : 's'} never loaded)` : ''
  return [
    `  interrupted by ${how}: ${finished} finished · ${cutOff} cut off in flight · ${stop.not_started} not started${files}`,
    '  to resume, run the same command again: finished tasks are reused, aborted and unstarted ones run',
  ]
}

/** Evidence files the records name that are not in the run folder (a merge without the shards' folders). */
function missingEvidence(records: TestCaseRun[], dir: string): string[] {
  const named = records.flatMap((r) => [...r.trajectory.map((s) => s.screenshot), r.result?.screenshot ?? null, r.final_state])
  return named.filter((path): path is string => path !== null && !existsSync(join(dir, path)))
}

/** The live run's summary; the same `summarize` rebuilds it from a stored folder. */
export function buildSummary(runs: TestCaseRun[], run: ResolvedRun, startedAt: Date): RunSummary {
  return summarize(runs, {
    run_id: run.run_id,
    agent: run.config.agent.name,
    agent_model: run.config.agent.model,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    prices: run.config.prices,
  })
}

export function renderTable(summary: RunSummary): string[] {
  // With several epochs a row counts attempts; the epoch line below has the per-task figures.
  const several = (summary.epochs?.epochs ?? 1) > 1
  const rows: string[][] = [['', several ? 'attempts' : 'tasks', 'passed', 'failed', 'error', 'timeout', 'aborted', 'faulted', 'skipped', 'unscored', 'passed/scored', 'unscored as failed']]
  const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`)
  const row = (label: string, t: Tally) => [
    label,
    String(t.total),
    String(t.passed),
    String(t.failed),
    String(t.error),
    String(t.timeout),
    String(t.aborted),
    String(t.faulted),
    String(t.skipped),
    String(t.unscored),
    percent(t.success_rate),
    percent(t.strict_success_rate),
  ]
  for (const [name, t] of Object.entries(summary.by_suite)) rows.push(row(`suite ${name}`, t))
  for (const [name, t] of Object.entries(summary.by_difficulty)) rows.push(row(`difficulty ${name}`, t))
  for (const challenge of ChallengeType.options) {
    const t = summary.by_challenge[challenge]
    if (t) rows.push(row(`challenge ${challenge}`, t))
  }
  for (const level of Level.options) {
    const t = summary.by_level[level]
    if (t) rows.push(row(`level ${level}`, t))
  }
  rows.push(row('total', summary.totals))
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)))
  const format = (r: string[]) => `  ${r.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ')}`
  const rule = `  ${'─'.repeat(widths.reduce((a, w) => a + w + 2, -2))}`
  const d = summary.duration
  const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)}s`)
  const model = summary.agent_model ? ` (${summary.agent_model})` : ''
  const setAside = setAsideNote(summary.totals.judged_without_grader)
  return [
    '',
    `  agentest summary · run ${summary.run_id} · agent ${summary.agent}${model}`,
    rule,
    format(rows[0]!),
    rule,
    ...rows.slice(1, -1).map(format),
    rule,
    format(rows[rows.length - 1]!),
    rule,
    ...(setAside ? [`  ${setAside}`] : []),
    ...faultLines(summary.totals, summary.rerun_faulted),
    ...(summary.epochs ? epochLines(summary.epochs) : []),
    `  duration all: mean ${seconds(d.all.mean_ms)} · median ${seconds(d.all.median_ms)} · p90 ${seconds(d.all.p90_ms)}` +
      `   passed: mean ${seconds(d.passed.mean_ms)} · median ${seconds(d.passed.median_ms)} · p90 ${seconds(d.passed.p90_ms)}`,
    ...(summary.weighted_score === null ? [] : [`  weighted score (OSUniverse levels): ${summary.weighted_score.toFixed(1)}%`]),
    ...reviewLine(summary),
    `  tokens: agent ${summary.tokens.input} in / ${summary.tokens.output} out${usd(summary.cost?.agent)} · grader ${summary.tokens.validation_input} in / ${summary.tokens.validation_output} out${usd(summary.cost?.grader)}`,
  ]
}

/**
 * The rate with its 95% interval, and with several epochs pass@k and pass^k at k = 1 and the
 * largest k every task reached: `over 3 epochs: success rate 66.7% (95% CI 9.4%–97.5%, Wilson, clustered by task, over 1 task) · pass@1 66.7% · pass@3 100.0% · pass^3 0.0%`.
 */
export function epochLines(e: EpochReduction): string[] {
  if (e.success_rate === null) return []
  const percent = (rate: number | undefined) => (rate === undefined ? '—' : `${(rate * 100).toFixed(1)}%`)
  const interval = e.interval
    ? ` (${Math.round(e.interval.level * 100)}% CI ${percent(e.interval.low)}–${percent(e.interval.high)}, ${e.interval.method === 'wilson' ? 'Wilson' : 'Wilson, clustered by task,'} over ${e.tasks} task${e.tasks === 1 ? '' : 's'})`
    : ''
  if (e.epochs === 1) return [`  success rate ${percent(e.success_rate)}${interval}`]
  const k = Math.max(...Object.keys(e.pass_at_k).map(Number))
  const reached = k > 1 ? ` · pass@${k} ${percent(e.pass_at_k[String(k)])} · pass^${k} ${percent(e.pass_hat_k[String(k)])}` : ''
  return [`  over ${e.epochs} epochs: success rate ${percent(e.success_rate)}${interval} · pass@1 ${percent(e.pass_at_k['1'])}${reached}`]
}

/**
 * Faulted tasks (not the agent's doing: in neither rate) by kind, and the command that runs exactly
 * them again; then the faults that count as not passed (the agent's doing: out_of_memory, a model
 * request refused as invalid). Nothing when there were none. An interrupt's aborted tasks have
 * their own lines (resumeLines).
 */
export function faultLines(totals: Tally, rerun?: RerunFaulted): string[] {
  const listed = (kinds: [string, number][]) => kinds.map(([kind, n]) => `${kind} ${n}`).join(' · ')
  const faulted = Object.entries(rerun?.kinds ?? {})
  const counted = faultsInRates(totals, rerun)
  const note = faultedNote(totals.faulted)
  return [
    ...(note ? [`  ${note}${faulted.length ? `: ${listed(faulted)}` : ''}`] : []),
    ...(rerun ? [`  re-run them: ${rerun.command}`, "  (or the run's own command again: faults are never reused, the rest is)"] : []),
    ...(counted.length ? [`  faults in the rates (the agent's doing): ${listed(counted)} (never reused: the same command runs them again)`] : []),
  ]
}

/** Cached results and human reviews, only when there are any: most runs have neither. */
function reviewLine(summary: RunSummary): string[] {
  const parts = [
    ...(summary.totals.cached ? [`cached results: ${summary.totals.cached}`] : []),
    ...(summary.human_reviewed ? [`human-reviewed: ${summary.human_reviewed} (${summary.disagreements.length} disagree with the automatic outcome)`] : []),
  ]
  return parts.length ? [`  ${parts.join(' · ')}`] : []
}

/** " ($0.0123)" when priced; nothing without a price table; " ($?)" for a model without a price. */
function usd(cost: number | null | undefined): string {
  if (cost === undefined) return ''
  return cost === null ? ' ($?)' : ` ($${cost.toFixed(4)})`
}
