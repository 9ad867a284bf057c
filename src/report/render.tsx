/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx'
import { describeAction } from '../computer/computer.ts'
import type { CheckResult, CommandOutputCheckResult, Step, TestCaseRun } from '../schema/run.ts'
import type { DurationStats, RunSummary, Tally } from '../schema/summary.ts'
import type { JudgedCheck, Vote } from '../schema/grading.ts'
import { recordKey } from '../schema/task.ts'
import { effectiveStatus, isReviewed, isUnscored } from '../runs/outcome.ts'
import { durationStats, tally, weightedScore } from '../runs/stats.ts'
import {
  agentNameFromYaml,
  between,
  formatCount,
  formatDuration,
  formatPercent,
  formatScore,
  formatTime,
  formatUsd,
  relativeUrl,
} from './format.ts'
import { CSS } from './styles.ts'

export interface RunReportInput {
  /** The run's TestCaseRun records (any order: the report sorts them by task id). */
  records: readonly TestCaseRun[]
  /** summary.json when the run has one; without it, totals are worked out from the records. */
  summary: RunSummary | null
  runId: string
}

/** Which filter button shows a task: failed covers failed, error and timeout. */
type Outcome = 'passed' | 'failed' | 'skipped'

/** After human review, as the summary counts it: a person's score wins over the harness's status. */
function outcomeOf(run: TestCaseRun): Outcome {
  const status = effectiveStatus(run)
  if (status === 'passed') return 'passed'
  if (status === 'skipped') return 'skipped'
  return 'failed'
}

/** The status a reader should see: the outcome after review, and "unscored" for a skip for want of a grader verdict. */
function statusLabel(run: TestCaseRun): string {
  return isUnscored(run) ? 'unscored' : effectiveStatus(run)
}

function anchor(run: TestCaseRun): string {
  return `task-${recordKey(run)}`
}

/** What the header shows; from summary.json, or worked out from the records when there is none. */
interface Overview {
  agent: string | null
  model: string | null
  startedAt: string | null
  finishedAt: string | null
  totals: Tally
  weightedScore: number | null
  duration: { all: DurationStats; passed: DurationStats }
  tokens: RunSummary['tokens']
  cost: RunSummary['cost']
}

function overviewOf(records: readonly TestCaseRun[], summary: RunSummary | null): Overview {
  if (summary) {
    return {
      agent: summary.agent,
      model: summary.agent_model,
      startedAt: summary.started_at,
      finishedAt: summary.finished_at,
      totals: summary.totals,
      weightedScore: summary.weighted_score,
      duration: summary.duration,
      tokens: summary.tokens,
      cost: summary.cost,
    }
  }
  const sum = (value: (run: TestCaseRun) => number) => records.reduce((total, run) => total + value(run), 0)
  const starts = records.map((r) => r.started_at).sort()
  const ends = records.map((r) => r.finished_at).sort()
  const first = records[0]
  return {
    agent: first ? agentNameFromYaml(first.agent_yaml) : null,
    model: first?.agent_model ?? null,
    startedAt: starts[0] ?? null,
    finishedAt: ends.at(-1) ?? null,
    totals: tally(records),
    weightedScore: weightedScore(records),
    duration: {
      all: durationStats(records.map((r) => r.duration_ms)),
      passed: durationStats(records.filter((r) => r.status === 'passed').map((r) => r.duration_ms)),
    },
    tokens: {
      input: sum((r) => r.input_tokens),
      output: sum((r) => r.output_tokens),
      validation_input: sum((r) => r.validation_input_tokens),
      validation_output: sum((r) => r.validation_output_tokens),
    },
    cost: undefined,
  }
}

/** A complete, self-contained HTML document (inline CSS and JS; images by paths relative to the run folder). */
export function renderRunReport(input: RunReportInput): string {
  const records = [...input.records].sort((a, b) => recordKey(a).localeCompare(recordKey(b), undefined, { numeric: true }))
  const overview = overviewOf(records, input.summary)
  return `<!DOCTYPE html>\n${String(<Document runId={input.runId} records={records} overview={overview} />)}\n`
}

const FILTER_JS = `(() => {
  const bar = document.getElementById('filters')
  if (!bar) return
  const buttons = [...bar.querySelectorAll('button[data-filter]')]
  const show = (filter) => {
    document.body.dataset.filter = filter
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.filter === filter))
  }
  for (const b of buttons) b.addEventListener('click', () => show(b.dataset.filter))
  for (const b of buttons) b.hidden = false
})()`

function Document(props: { runId: string; records: TestCaseRun[]; overview: Overview }) {
  const { runId, records, overview } = props
  const count = (outcome: Outcome) => records.filter((r) => outcomeOf(r) === outcome).length
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="generator" content="agentest" />
        <title>{`agentest · ${runId}`}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body data-filter="all">
        <RunHeader runId={runId} overview={overview} />
        <nav class="bar" id="filters" aria-label="Filter tasks">
          <div class="wrap">
            <span class="title">
              <a href="#top">{runId}</a>
            </span>
            <FilterButton filter="all" label="All" n={records.length} pressed />
            <FilterButton filter="failed" label="Failed" n={count('failed')} />
            <FilterButton filter="passed" label="Passed" n={count('passed')} />
            {count('skipped') > 0 ? <FilterButton filter="skipped" label="Skipped" n={count('skipped')} /> : null}
          </div>
        </nav>
        <main class="wrap">
          {records.length === 0 ? (
            <p class="empty">This run has no task records.</p>
          ) : (
            <>
              <TaskTable records={records} />
              {records.map((run) => (
                <TaskSection run={run} />
              ))}
            </>
          )}
        </main>
        <footer>
          Written by agentest from <code>{runId}</code>. Screenshots open full size in a new tab.
        </footer>
        <script dangerouslySetInnerHTML={{ __html: FILTER_JS }} />
      </body>
    </html>
  )
}

function FilterButton(props: { filter: string; label: string; n: number; pressed?: boolean }) {
  // Hidden until the script runs: without JS every task shows and there is nothing to press.
  return (
    <button type="button" data-filter={props.filter} aria-pressed={props.pressed ? 'true' : 'false'} hidden>
      {props.label}
      <span class="n">{props.n}</span>
    </button>
  )
}

function RunHeader(props: { runId: string; overview: Overview }) {
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

function Tallied(props: { n: number; status: string }) {
  if (props.n === 0) return null
  return <span class={`badge b-${props.status}`}>{`${props.n} ${props.status}`}</span>
}

function Badge(props: { run: TestCaseRun }) {
  const label = statusLabel(props.run)
  return <span class={`badge b-${label}`}>{label}</span>
}

function CheckMarks(props: { checks: readonly CheckResult[] }) {
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

function TaskTable(props: { records: TestCaseRun[] }) {
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

function Section(props: { title: string; children?: Child }) {
  return (
    <section>
      <h3 class="section-title">{props.title}</h3>
      {props.children}
    </section>
  )
}

function TaskSection(props: { run: TestCaseRun }) {
  const { run } = props
  const tags = [
    run.category,
    run.level ? `level ${run.level}` : null,
    run.difficulty,
    run.challenge_type,
    run.app ? `app ${run.app}` : null,
    run.desktop_image ? `image ${run.desktop_image}` : null,
    run.variant ? `near miss: ${run.variant}` : null,
    isReviewed(run) ? 'reviewed by a person' : null,
    run.cached ? `cached${run.cached_from ? ` from ${run.cached_from}` : ''}` : null,
  ].filter((tag): tag is string => Boolean(tag))
  return (
    <article class="task" id={anchor(run)} data-outcome={outcomeOf(run)}>
      <div class="task-head">
        <div class="titles">
          <h2>
            <code>{recordKey(run)}</code>
            <Badge run={run} />
          </h2>
          <div class="name">{run.name}</div>
          <div class="tags">
            {tags.map((tag) => (
              <span class="tag">{tag}</span>
            ))}
            <span class="tag mono">{run.file}</span>
          </div>
        </div>
        <a class="top" href="#top">
          ↑ top
        </a>
      </div>
      <div class="task-body">
        <Section title="Goal">
          <div class="goal">{run.task}</div>
        </Section>

        <div class="facts">
          <Fact label="Status" value={statusLabel(run)} />
          {effectiveStatus(run) !== run.status ? <Fact label="Harness status" value={run.status} /> : null}
          <Fact label="Agent status" value={run.agent_status} />
          <Fact label="Steps" value={`${run.trajectory.length} of ${run.max_steps}`} />
          <Fact label="Duration" value={formatDuration(run.duration_ms)} />
          <Fact label="Started (UTC)" value={formatTime(run.started_at, false)} />
          <Fact label="Finished (UTC)" value={formatTime(run.finished_at, false)} />
          <Fact label="Agent tokens" value={`${formatCount(run.input_tokens)} in · ${formatCount(run.output_tokens)} out`} />
          <Fact label="Grader tokens" value={`${formatCount(run.validation_input_tokens)} in · ${formatCount(run.validation_output_tokens)} out`} />
        </div>

        {run.error ? (
          <Section title="Error">
            <div class="box error">
              <span class="kind">{run.error.kind}</span>
              <pre style="display:inline">{run.error.message}</pre>
            </div>
          </Section>
        ) : null}

        <Section title="Final answer">
          {run.final_answer !== null && run.final_answer !== '' ? (
            <div class="box answer">{run.final_answer}</div>
          ) : (
            <div class="empty">No answer.</div>
          )}
          {run.final_state ? (
            <div class="muted" style="margin-top:6px;font-size:13px">
              Final app state: <a href={relativeUrl(run.final_state)}>{run.final_state}</a>
            </div>
          ) : null}
        </Section>

        <Section title={`Checks (${run.check_results.length})`}>
          {run.check_results.length === 0 ? (
            <div class="empty">No checks ran.</div>
          ) : (
            <ul class="checks">
              {run.check_results.map((check) => (
                <CheckItem check={check} />
              ))}
            </ul>
          )}
        </Section>

        {run.command_output_check_results.length > 0 ? (
          <Section title="Command outputs">
            {run.command_output_check_results.map((output) => (
              <CommandOutput output={output} />
            ))}
          </Section>
        ) : null}

        <Grading run={run} />

        <Section title={`Steps (${run.trajectory.length})`}>
          {run.trajectory.length === 0 && !run.result ? (
            <div class="empty">The agent took no steps.</div>
          ) : (
            <div class="steps">
              {run.trajectory.map((step) => (
                <StepCard step={step} startedAt={run.started_at} />
              ))}
              {run.result ? <StepCard step={run.result} startedAt={run.started_at} final /> : null}
            </div>
          )}
        </Section>

        {run.setup_cmd ? (
          <details>
            <summary>Setup command</summary>
            <pre class="box">{run.setup_cmd}</pre>
          </details>
        ) : null}
      </div>
    </article>
  )
}

function Fact(props: { label: string; value: string }) {
  return (
    <div>
      <span>{props.label}</span>
      <span class="v">{props.value}</span>
    </div>
  )
}

/** ✓ passed, ✗ failed, ○ unscored (a judged check without a verdict). */
function checkMark(check: CheckResult): '✓' | '✗' | '○' {
  if (check.score === -1) return '○'
  return check.passed ? '✓' : '✗'
}

function CheckItem(props: { check: CheckResult }) {
  const { check } = props
  const mark = checkMark(check)
  const tone = mark === '✓' ? 'ok' : mark === '✗' ? 'bad' : 'none'
  const label = mark === '✓' ? 'passed' : mark === '✗' ? 'failed' : 'unscored'
  const message = checkMessage(check)
  return (
    <li class={`check c-${mark === '✗' ? 'fail' : mark === '✓' ? 'pass' : 'unscored'}`}>
      <span class={`mark ${tone}`} role="img" aria-label={label} title={label}>
        {mark}
      </span>
      <div>
        <div class="check-name">{check.check}</div>
        {message ? <div class="check-msg">{message}</div> : null}
      </div>
      {check.judge ? <JudgeDetails judge={check.judge} /> : null}
    </li>
  )
}

/**
 * The check's message without what the report already shows: the check's own name, which
 * expect() puts in front of its message, and a judged check's comment or error, shown with the judge.
 */
function checkMessage(check: CheckResult): string | null {
  let message = check.message
  if (!message) return null
  if (message.startsWith(`${check.check}: `)) message = message.slice(check.check.length + 2)
  if (check.judge?.votes.some((vote) => vote.comment === message)) return null
  if (check.judge?.error && message.includes(check.judge.error)) return null
  return message.trim() === '' ? null : message
}

const JUDGE_KIND: Record<JudgedCheck['type'], string> = {
  returned_result: 'the answer',
  final_screenshot: 'the final screen',
  expected_flow: 'the flow',
  command_output: 'a command output',
}

function JudgeDetails(props: { judge: JudgedCheck }) {
  const { judge } = props
  return (
    <div class="judge">
      <div class="asked">
        Judged on {JUDGE_KIND[judge.type]}
        {judge.command ? (
          <>
            {' '}
            of <code>{judge.command}</code>
          </>
        ) : null}
        : <q>{judge.value}</q>
      </div>
      {judge.votes.length === 0 ? <div class="muted">No grader voted.</div> : judge.votes.map((vote) => <VoteItem vote={vote} />)}
      {judge.error ? (
        <div class="check-msg">
          <span class="none">○</span> unscored: {judge.error}
        </div>
      ) : null}
    </div>
  )
}

function VoteItem(props: { vote: Vote }) {
  const { vote } = props
  const verdict = vote.score === 1 ? 'pass' : vote.score === 0 ? 'fail' : 'no verdict'
  const tone = vote.score === 1 ? 'ok' : vote.score === 0 ? 'bad' : 'none'
  const met = vote.checklist.filter((item) => item.met).length
  return (
    <div class="vote">
      <span class="model">{vote.model}</span> <b class={tone}>{verdict}</b>
      <span class="muted" style="font-size:12.5px">
        {' '}
        · {formatCount(vote.input_tokens)} in / {formatCount(vote.output_tokens)} out
      </span>
      {vote.comment ? <div class="comment">{vote.comment}</div> : null}
      {vote.error ? <div class="step-error">{vote.error}</div> : null}
      {vote.checklist.length > 0 ? (
        <details>
          <summary>
            checklist: {met} of {vote.checklist.length} met
          </summary>
          <ul class="checklist">
            {vote.checklist.map((item) => (
              <li>
                <span class={item.met ? 'ok' : 'bad'}>{item.met ? '✓' : '✗'}</span>
                <span>
                  <span class="q">{item.question}</span> <span class="a">{item.answer}</span>
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  )
}

function CommandOutput(props: { output: CommandOutputCheckResult }) {
  const { output } = props
  return (
    <div class="cmd">
      <div class="cmd-head">
        <code>$ {output.command}</code>
        <span class={output.exit_code === 0 ? 'ok' : 'bad'}>exit {output.exit_code}</span>
      </div>
      <pre>{output.output === '' ? '(no output)' : output.output}</pre>
    </div>
  )
}

function Grading(props: { run: TestCaseRun }) {
  const { run } = props
  const graded = run.ai_score >= 0 || run.ai_comment
  const reviewed = run.human_score >= 0 || run.human_comment
  if (!graded && !reviewed) return null
  return (
    <Section title="Grading">
      <div class="facts" style="margin-bottom:8px">
        <Fact label="AI score" value={formatScore(run.ai_score)} />
        <Fact label="Human score" value={formatScore(run.human_score)} />
      </div>
      {run.ai_comment ? (
        <div class="box" style="margin-bottom:8px">
          <div class="section-title" style="margin-bottom:2px">Grader</div>
          <div class="answer" style="white-space:pre-wrap">
            {run.ai_comment}
          </div>
        </div>
      ) : null}
      {run.human_comment ? (
        <div class="box">
          <div class="section-title" style="margin-bottom:2px">Reviewer</div>
          <div style="white-space:pre-wrap">{run.human_comment}</div>
        </div>
      ) : null}
    </Section>
  )
}

function StepCard(props: { step: Step; startedAt: string; final?: boolean }) {
  const { step, final } = props
  // The final card is the screen the run ended on; its message is the final answer, shown above.
  const described = final ? 'end of the run' : describeAction(step.action)
  const label = final ? 'final screen' : `step ${step.index}`
  const offset = Date.parse(props.startedAt)
  const at = Number.isFinite(offset) && step.timestamp >= offset ? `+${formatDuration(step.timestamp - offset)}` : null
  const classes = ['step', final ? 'final' : '', step.error ? 'has-error' : ''].filter(Boolean).join(' ')
  return (
    <figure class={classes} style="margin:0">
      {step.screenshot ? (
        <a class="shot" href={relativeUrl(step.screenshot)} target="_blank" rel="noopener">
          <img src={relativeUrl(step.screenshot)} loading="lazy" decoding="async" alt={`${label}: ${described}`} />
        </a>
      ) : step.action.type === 'message' ? (
        <blockquote class="shot said">{step.action.text === '' ? <span class="empty">(empty message)</span> : step.action.text}</blockquote>
      ) : (
        <div class="shot missing">no screenshot</div>
      )}
      <figcaption class="step-body">
        <div class="step-top">
          <span class="step-no">{final ? 'Final' : `#${step.index}`}</span>
          <span class="action">{step.action.type === 'message' && !final ? 'message' : described}</span>
          {at ? <span class="step-at">{at}</span> : null}
        </div>
        {step.thought ? <div class="thought">{step.thought}</div> : null}
        {step.url ? (
          <div class="url" title={step.url}>
            {step.url}
          </div>
        ) : null}
        {step.error ? <div class="step-error">{step.error}</div> : null}
      </figcaption>
    </figure>
  )
}
