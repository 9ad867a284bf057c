/** @jsxImportSource hono/jsx */
import { PageHead } from './page-head.tsx'
import type { TestCaseRun } from '../schema/run.ts'
import type { RunSummary } from '../schema/summary.ts'
import { recordKey } from '../schema/task.ts'
import { CSS } from './styles.ts'
import { outcomeOf, overviewOf } from './overview.ts'
import type { Outcome, Overview } from './overview.ts'
import { RunHeader, TaskTable } from './header.tsx'
import { TaskSection } from './task.tsx'
import type { ModelCallSummary } from '../transcript/read.ts'

export interface RunReportInput {
  /** The run's TestCaseRun records (any order: the report sorts them by task id). */
  records: readonly TestCaseRun[]
  /** summary.json when the run has one; without it, totals are worked out from the records. */
  summary: RunSummary | null
  runId: string
  /** Each transcript's model calls, by the transcript's run-relative path. */
  transcripts?: Readonly<Record<string, ModelCallSummary[]>>
}


/** A complete, self-contained HTML document (inline CSS and JS; images by paths relative to the run folder). */
export function renderRunReport(input: RunReportInput): string {
  const records = [...input.records].sort((a, b) => recordKey(a).localeCompare(recordKey(b), undefined, { numeric: true }))
  const overview = overviewOf(records, input.summary)
  return `<!DOCTYPE html>\n${String(<Document runId={input.runId} records={records} overview={overview} transcripts={input.transcripts ?? {}} />)}\n`
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

function Document(props: { runId: string; records: TestCaseRun[]; overview: Overview; transcripts: Readonly<Record<string, ModelCallSummary[]>> }) {
  const { runId, records, overview } = props
  const count = (outcome: Outcome) => records.filter((r) => outcomeOf(r) === outcome).length
  return (
    <html lang="en">
      <PageHead title={`agentest · ${runId}`} css={CSS} />
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
                <TaskSection run={run} calls={run.transcript ? (props.transcripts[run.transcript] ?? []) : []} />
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
