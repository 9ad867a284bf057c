/** @jsxImportSource hono/jsx */
import { PageHead } from '../report/page-head.tsx'
import { formatCount, formatDuration, formatPercent, formatTime, formatUsd, relativeUrl } from '../report/format.ts'
import type { Cell, Leaderboard, LeaderboardRow } from './schema.ts'
import { LEADERBOARD_JS } from './script.ts'
import { LEADERBOARD_CSS } from './styles.ts'

/** leaderboard.html: one self-contained page (inline CSS and JS, no fetch), beside the run folders it links to. */
export function renderLeaderboard(board: Leaderboard): string {
  return `<!DOCTYPE html>\n${String(<Page board={board} />)}\n`
}

function Page(props: { board: Leaderboard }) {
  const { board } = props
  const runs = board.rows.reduce((sum, row) => sum + row.runs.length, 0)
  return (
    <html lang="en">
      <PageHead title="agentest · leaderboard" css={LEADERBOARD_CSS} />
      <body>
        <header class="run-head" id="top">
          <div class="wrap wide">
            <div class="brand">agentest leaderboard</div>
            <h1>Leaderboard</h1>
            <div class="run-meta">
              <span>
                <b>{board.rows.length}</b> {board.rows.length === 1 ? 'row' : 'rows'} from <b>{runs}</b> {runs === 1 ? 'run' : 'runs'}
              </span>
              <span>
                <b>{board.tasks.length}</b> tasks in {board.suites.join(', ') || 'no suite'}
              </span>
              <span>written {formatTime(board.generated_at)}</span>
            </div>
            <p class="board-note">
              A row is one agent, model and grader, its runs pooled: a task run twice is two attempts (a reused result, one). A rate
              is the mean over tasks of each task's share of passed attempts, after human review, with its 95% interval as a bar and
              a range (Wilson; with several attempts per task, Wilson at the effective sample size, since attempts of one task move together). A row that <b>covers N of M</b> tasks is
              rated over fewer tasks than the others. An attempt that ended in a fault not of the agent's doing (a killed container, the
              model API down) is in no rate, as in the run's summary; its cell counts it as <b>faulted</b>.
            </p>
          </div>
        </header>
        <main class="wrap wide">
          <div class="tools" id="tools" hidden>
            <input id="filter" type="search" placeholder="Filter by agent, model or grader" aria-label="Filter rows by agent, model or grader" />
            <span class="count" id="shown" aria-live="polite"></span>
          </div>
          {board.rows.length === 0 ? <p class="empty">No runs with task records.</p> : <Board board={board} />}
        </main>
        <footer>Written by agentest. Each run's own report is linked under its agent.</footer>
        <script dangerouslySetInnerHTML={{ __html: LEADERBOARD_JS }} />
      </body>
    </html>
  )
}

function Board(props: { board: Leaderboard }) {
  const { board } = props
  return (
    <div class="table-card scroll">
      <table class="tasks board" id="board">
        <thead>
          <tr>
            <Head label="Agent" type="text" />
            <Head label="Model" type="text" />
            <Head label="Grader" type="text" />
            <Head label="Overall" type="number" num sorted />
            {board.suites.map((suite) => (
              <Head label={suite} type="number" num />
            ))}
            <Head label="Tasks" type="number" num />
            <Head label="Tokens / task" type="number" num />
            <Head label="Cost / task" type="number" num />
            <Head label="Time / task" type="number" num />
          </tr>
        </thead>
        <tbody>
          {board.rows.map((row) => (
            <Row row={row} suites={board.suites} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

function Head(props: { label: string; type: 'text' | 'number'; num?: boolean; sorted?: boolean }) {
  // The rows arrive best overall rate first, so that column starts out sorted.
  return (
    <th class={props.num ? 'num' : undefined} data-type={props.type} aria-sort={props.sorted ? 'descending' : 'none'}>
      <button type="button">{props.label}</button>
    </th>
  )
}

function Row(props: { row: LeaderboardRow; suites: string[] }) {
  const { row } = props
  const search = [row.agent, row.model ?? '', row.grader].join(' ').toLowerCase()
  const t = row.per_task
  return (
    <tr data-search={search} data-coverage={row.coverage.complete ? 'complete' : 'partial'}>
      <td data-sort={row.agent}>
        <div class="who">{row.agent}</div>
        <details>
          <summary>{row.runs.length === 1 ? '1 run' : `${row.runs.length} runs`}</summary>
          <ul>
            {row.runs.map((run) => (
              <li>
                <a href={`${relativeUrl(run.folder)}/report.html`}>{run.run_id}</a>
              </li>
            ))}
          </ul>
        </details>
      </td>
      <td class="model" data-sort={row.model ?? ''}>
        {row.model ?? '—'}
      </td>
      <td class="grader" data-sort={row.grader}>
        {row.grader}
      </td>
      <RateCell cell={row.overall} />
      {props.suites.map((suite) => (
        <RateCell cell={row.by_suite[suite]} />
      ))}
      <CoverageCell row={row} suites={props.suites} />
      <td class="num" data-sort={numberOrEmpty(t.agent_tokens)} title={t.grader_tokens ? `grader ${formatCount(Math.round(t.grader_tokens))}` : undefined}>
        {t.agent_tokens === null ? '—' : formatCount(Math.round(t.agent_tokens))}
        {t.grader_tokens ? <div class="ci">grader {formatCount(Math.round(t.grader_tokens))}</div> : null}
      </td>
      <td class="num" data-sort={numberOrEmpty(t.cost_usd)}>
        {usd(t.cost_usd)}
      </td>
      <td class="num" data-sort={numberOrEmpty(t.median_duration_ms)} title="median">
        {formatDuration(t.median_duration_ms)}
      </td>
    </tr>
  )
}

/** A rate, its interval as a bar and a range, and what it is over. */
function RateCell(props: { cell: Cell | undefined }) {
  const { cell } = props
  // Attempts that ended in a fault not of the agent's doing are in no rate; the cell says how many.
  const faulted = cell?.faulted ? `${cell.faulted} faulted, not in the rate` : null
  if (!cell || cell.success_rate === null) {
    return (
      <td class="num rate-cell" data-sort="">
        <span class="none">—</span>
        {faulted ? <div class="ci n">{faulted}</div> : null}
      </td>
    )
  }
  const tasks = cell.attempts > cell.tasks ? `${cell.tasks} tasks, ${cell.attempts} tries` : `${cell.tasks} ${cell.tasks === 1 ? 'task' : 'tasks'}`
  const over = faulted ? `${tasks} · ${faulted}` : tasks
  const ci = cell.interval
  const range = ci ? `${Math.round(ci.low * 100)}–${Math.round(ci.high * 100)}%` : null
  return (
    <td class="num rate-cell" data-sort={String(cell.success_rate)} title={range ? `95% interval ${range}; ${over}` : over}>
      <div class="rate">{formatPercent(cell.success_rate)}</div>
      {ci ? (
        <span class="ci-bar" aria-hidden="true">
          <span class="range" style={`left:${pct(ci.low)};width:${pct(ci.high - ci.low)}`} />
          <span class="point" style={`left:${pct(cell.success_rate)}`} />
        </span>
      ) : null}
      {range ? <div class="ci">{range}</div> : null}
      <div class="ci n">{over}</div>
    </td>
  )
}

/** How many of all tasks the row covers, and which suites; a partial row is flagged, its missing tasks one click away. */
function CoverageCell(props: { row: LeaderboardRow; suites: string[] }) {
  const c = props.row.coverage
  const every = c.suites.length === props.suites.length
  const suites = <div class="suites">{every && props.suites.length > 1 ? 'every suite' : c.suites.join(', ')}</div>
  if (c.complete) {
    return (
      <td class="coverage" data-sort={String(c.tasks)}>
        all {c.tasks}
        {suites}
      </td>
    )
  }
  return (
    <td class="coverage" data-sort={String(c.tasks)}>
      <details class="partial">
        <summary title={`missing: ${c.missing.join(', ')}`}>
          ⚠ covers {c.tasks} of {c.of} tasks
        </summary>
        <div class="ci">missing {c.missing.length}:</div>
        <ul class="missing">
          {c.missing.map((key) => (
            <li>
              <code>{key}</code>
            </li>
          ))}
        </ul>
      </details>
      {suites}
    </td>
  )
}

function pct(fraction: number): string {
  return `${(Math.min(1, Math.max(0, fraction)) * 100).toFixed(1)}%`
}

/** USD as the run report writes it, but a cost too small for four decimals is not $0.0000. */
function usd(value: number | null): string {
  if (value === null) return '—'
  return value > 0 && value < 0.0001 ? '<$0.0001' : formatUsd(value)
}

function numberOrEmpty(value: number | null): string {
  return value === null ? '' : String(value)
}
