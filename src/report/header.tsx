/** @jsxImportSource hono/jsx */
import type { CheckResult, TestCaseRun } from '../schema/run.ts'
import { recordKey } from '../schema/task.ts'
import { unscoredInRates } from '../runs/stats.ts'
import { faultsInRates } from '../runs/rerun.ts'
import type { RerunFaulted } from '../schema/summary.ts'
import { between, faultedNote, formatCount, formatDuration, formatPercent, formatScore, formatTime, formatUsd, setAsideNote } from './format.ts'
import { outcomeOf, statusLabel, anchor } from './overview.ts'
import type { Overview } from './overview.ts'
import type { EpochReduction } from '../schema/epochs.ts'
import { checkMark } from './checks.tsx'

/** An interrupted run says so at the top, with what it left undone and how to finish it. */
function interruptedNote(stop: NonNullable<Overview['interrupted']>, aborted: number): string {
  const how = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM', worker_died: 'a Vitest worker that died' }[stop.cause]
  const files = stop.files_not_started ? ` and ${stop.files_not_started} task file(s) never loaded` : ''
  return `Interrupted by ${how}: ${aborted} task(s) cut off in flight, ${stop.not_started} not started${files}. Running the same command again finishes the run (finished tasks are reused).`
}

/**
 * Faulted tasks (not the agent's doing: in neither rate) by kind, with the command that re-runs
 * them; then the faults that count in the rates (the agent's doing). Nothing without faults.
 */
function FaultsNote(props: { totals: Overview['totals']; rerun: RerunFaulted | null }) {
  const { totals, rerun } = props
  const listed = (kinds: [string, number][]) => kinds.map(([k, n]) => `${k} ${n}`).join(' · ')
  const note = faultedNote(totals.faulted)
  const counted = faultsInRates(totals, rerun)
  return (
    <>
      {note ? (
        <p class="set-aside faulted">
          {`${note}${rerun ? `: ${listed(Object.entries(rerun.kinds))}` : ''}.`}
          {rerun ? (
            <>
              {' Re-run them: '}
              <code>{rerun.command}</code> (or the run's own command again: faults are never reused).
            </>
          ) : null}
        </p>
      ) : null}
      {counted.length ? <p class="set-aside">{`Faults in the rates (the agent's doing): ${listed(counted)}. They count as not passed; the same command runs them again.`}</p> : null}
    </>
  )
}

export function RunHeader(props: { runId: string; overview: Overview }) {
  const { runId, overview: o } = props
  const t = o.totals
  const setAside = setAsideNote(t.judged_without_grader)
  const wall = o.startedAt && o.finishedAt ? between(o.startedAt, o.finishedAt) : null
  return (
    <header class="run-head" id="top">
      <div class="wrap">
        <div class="brand">agentest run report</div>
        <h1>{runId}</h1>
        <div class="run-meta">
          <span>
            agent <b>{o.agent ?? '—'}</b>
          </span>
          <span>
            model <b>{o.model ?? '—'}</b>
          </span>
          <span>started {formatTime(o.startedAt)}</span>
          <span>finished {formatTime(o.finishedAt)}</span>
          {wall !== null ? <span>wall time {formatDuration(wall)}</span> : null}
          <a href="../leaderboard.html">Leaderboard</a>
        </div>
        <div class="stats">
          <Stat
            big
            label="Success rate"
            value={formatPercent(t.success_rate)}
            sub={`${t.passed} passed / ${t.scored} scored${t.faulted ? ` · ${t.faulted} faulted, not in it` : ''}${intervalNote(o.epochs)}`}
          />
          {o.epochs.epochs > 1 ? <EpochsStat epochs={o.epochs} /> : null}
          <Stat label="Counting unscored as failed" value={formatPercent(t.strict_success_rate)} sub={`${unscoredInRates(t)} unscored`} />
          <Stat label="Tasks" value={String(t.total)}>
            <div class="tally">
              <Tallied n={t.passed} status="passed" />
              <Tallied n={t.failed} status="failed" />
              <Tallied n={t.error} status="error" />
              <Tallied n={t.timeout} status="timeout" />
              <Tallied n={t.aborted} status="aborted" />
              <Tallied n={t.faulted} status="faulted" />
              <Tallied n={t.skipped} status="skipped" />
              <Tallied n={t.unscored} status="unscored" />
            </div>
          </Stat>
          {o.weightedScore !== null ? <Stat label="Weighted score" value={`${o.weightedScore.toFixed(1)}%`} sub="by level (OSUniverse)" /> : null}
          <Stat
            label="Median task time"
            value={formatDuration(o.duration.all.median_ms)}
            sub={`mean ${formatDuration(o.duration.all.mean_ms)} · p90 ${formatDuration(o.duration.all.p90_ms)}`}
          />
          <Stat label="Agent tokens" value={formatCount(o.tokens.input + o.tokens.output)} sub={`${formatCount(o.tokens.input)} in · ${formatCount(o.tokens.output)} out`} />
          <Stat
            label="Grader tokens"
            value={formatCount(o.tokens.validation_input + o.tokens.validation_output)}
            sub={`${formatCount(o.tokens.validation_input)} in · ${formatCount(o.tokens.validation_output)} out`}
          />
          {o.cost ? (
            <Stat
              label="Cost"
              value={o.cost.agent !== null && o.cost.grader !== null ? formatUsd(o.cost.agent + o.cost.grader) : '—'}
              sub={`agent ${formatUsd(o.cost.agent)} · grader ${formatUsd(o.cost.grader)}`}
            />
          ) : null}
        </div>
        {setAside ? <p class="set-aside">{setAside}</p> : null}
        {o.interrupted ? <p class="interrupted">{interruptedNote(o.interrupted, t.aborted + (t.faults.worker_killed ?? 0))}</p> : null}
        <FaultsNote totals={t} rerun={o.rerunFaulted} />
      </div>
    </header>
  )
}

/** " · 95% CI 34.2%–100.0%": the interval of the rate over tasks (src/runs/epochs.ts). */
function intervalNote(e: EpochReduction): string {
  return e.interval ? ` · ${Math.round(e.interval.level * 100)}% CI ${formatPercent(e.interval.low)}–${formatPercent(e.interval.high)}` : ''
}

/** With several epochs: pass@1, and pass@k and pass^k at the largest k every task reached. */
function EpochsStat(props: { epochs: EpochReduction }) {
  const e = props.epochs
  const k = Math.max(0, ...Object.keys(e.pass_at_k).map(Number))
  const at = (of: Record<string, number>, n: number) => formatPercent(of[String(n)] ?? null)
  return <Stat label={`Over ${e.epochs} epochs: pass@1`} value={at(e.pass_at_k, 1)} sub={k > 1 ? `pass@${k} ${at(e.pass_at_k, k)} · pass^${k} ${at(e.pass_hat_k, k)}` : `${e.tasks} tasks`} />
}

/** One figure of the run's header: its label, value, and a line (or anything) below. */
function Stat(props: { label: string; value: string; sub?: string; big?: boolean; children?: unknown }) {
  return (
    <div class={props.big ? 'stat big' : 'stat'}>
      <div class="label">{props.label}</div>
      <div class="value">{props.value}</div>
      {props.sub !== undefined ? <div class="sub">{props.sub}</div> : null}
      {props.children}
    </div>
  )
}

export function Tallied(props: { n: number; status: string }) {
  if (props.n === 0) return null
  return <span class={`badge b-${props.status}`}>{`${props.n} ${props.status}`}</span>
}

export function Badge(props: { run: TestCaseRun }) {
  const label = statusLabel(props.run)
  return <span class={`badge b-${label}`}>{label}</span>
}

export function CheckMarks(props: { checks: readonly CheckResult[] }) {
  const { checks } = props
  if (checks.length === 0) return <span class="none">—</span>
  const passed = checks.filter((c) => checkMark(c) === '✓').length
  const failed = checks.filter((c) => checkMark(c) === '✗').length
  const unscored = checks.length - passed - failed
  return (
    <span class="marks" title={`${passed} passed, ${failed} failed, ${unscored} unscored`}>
      {passed || !failed ? <span class="ok">✓ {passed}</span> : null}
      {failed ? <span class="bad">✗ {failed}</span> : null}
      {unscored ? <span class="none">○ {unscored}</span> : null}
    </span>
  )
}

export function TaskTable(props: { records: TestCaseRun[] }) {
  return (
    <div class="table-card">
      <table class="tasks">
        <thead>
          <tr>
            <th>Task</th>
            <th>Status</th>
            <th class="num">Steps</th>
            <th class="num">Duration</th>
            <th>Checks</th>
            <th class="num hide-sm">AI score</th>
            <th class="num hide-sm">Human</th>
          </tr>
        </thead>
        <tbody>
          {props.records.map((run) => (
            <tr data-outcome={outcomeOf(run)}>
              <td>
                <a href={`#${anchor(run)}`}>
                  <code>{recordKey(run)}</code>
                </a>
                <div class="name">{run.name}</div>
              </td>
              <td>
                <Badge run={run} />
              </td>
              <td class="num">{run.trajectory.length}</td>
              <td class="num">{formatDuration(run.duration_ms)}</td>
              <td>
                <CheckMarks checks={run.check_results} />
              </td>
              <td class="num hide-sm">{formatScore(run.ai_score)}</td>
              <td class="num hide-sm">{formatScore(run.human_score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
