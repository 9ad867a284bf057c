/** @jsxImportSource hono/jsx */
import type { CheckResult, TestCaseRun } from '../schema/run.ts'
import { recordKey } from '../schema/task.ts'
import { tally, weightedScore } from '../runs/stats.ts'
import { between, formatCount, formatDuration, formatPercent, formatScore, formatTime, formatUsd } from './format.ts'
import { outcomeOf, statusLabel, anchor } from './overview.ts'
import type { Overview } from './overview.ts'
import { checkMark } from './checks.tsx'

export function RunHeader(props: { runId: string; overview: Overview }) {
  const { runId, overview: o } = props
  const t = o.totals
  const scored = t.total - t.skipped - t.unscored
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
        </div>
        <div class="stats">
          <div class="stat big">
            <div class="label">Success rate</div>
            <div class="value">{formatPercent(t.success_rate)}</div>
            <div class="sub">
              {t.passed} of {scored} scored
            </div>
          </div>
          <div class="stat">
            <div class="label">Tasks</div>
            <div class="value">{t.total}</div>
            <div class="tally">
              <Tallied n={t.passed} status="passed" />
              <Tallied n={t.failed} status="failed" />
              <Tallied n={t.error} status="error" />
              <Tallied n={t.timeout} status="timeout" />
              <Tallied n={t.skipped} status="skipped" />
              <Tallied n={t.unscored} status="unscored" />
            </div>
          </div>
          {o.weightedScore !== null ? (
            <div class="stat">
              <div class="label">Weighted score</div>
              <div class="value">{`${o.weightedScore.toFixed(1)}%`}</div>
              <div class="sub">by level (OSUniverse)</div>
            </div>
          ) : null}
          <div class="stat">
            <div class="label">Median task time</div>
            <div class="value">{formatDuration(o.duration.all.median_ms)}</div>
            <div class="sub">
              mean {formatDuration(o.duration.all.mean_ms)} · p90 {formatDuration(o.duration.all.p90_ms)}
            </div>
          </div>
          <div class="stat">
            <div class="label">Agent tokens</div>
            <div class="value">{formatCount(o.tokens.input + o.tokens.output)}</div>
            <div class="sub">
              {formatCount(o.tokens.input)} in · {formatCount(o.tokens.output)} out
            </div>
          </div>
          <div class="stat">
            <div class="label">Grader tokens</div>
            <div class="value">{formatCount(o.tokens.validation_input + o.tokens.validation_output)}</div>
            <div class="sub">
              {formatCount(o.tokens.validation_input)} in · {formatCount(o.tokens.validation_output)} out
            </div>
          </div>
          {o.cost ? (
            <div class="stat">
              <div class="label">Cost</div>
              <div class="value">{o.cost.agent !== null && o.cost.grader !== null ? formatUsd(o.cost.agent + o.cost.grader) : '—'}</div>
              <div class="sub">
                agent {formatUsd(o.cost.agent)} · grader {formatUsd(o.cost.grader)}
              </div>
            </div>
          ) : null}
        </div>
      </div>
    </header>
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
