/** @jsxImportSource hono/jsx */
import type { ModelCallSummary } from '../transcript/read.ts'
import type { Child } from 'hono/jsx'
import type { TestCaseRun } from '../schema/run.ts'
import { recordKey } from '../schema/task.ts'
import { effectiveStatus, isReviewed } from '../runs/outcome.ts'
import { formatCount, formatDuration, formatTime, relativeUrl } from './format.ts'
import { outcomeOf, statusLabel, anchor } from './overview.ts'
import { Badge } from './header.tsx'
import { CheckItem, CommandOutput, Grading } from './checks.tsx'
import { StepCard } from './steps.tsx'

export function Section(props: { title: string; children?: Child }) {
  return (
    <section>
      <h3 class="section-title">{props.title}</h3>
      {props.children}
    </section>
  )
}

export function TaskSection(props: { run: TestCaseRun; calls: ModelCallSummary[] }) {
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
              {run.final_state.endsWith('observed.json') ? 'What the agent ran and changed' : 'Final app state'}: <a href={relativeUrl(run.final_state)}>{run.final_state}</a>
            </div>
          ) : null}
          {run.transcript ? (
            <div class="muted" style="margin-top:6px;font-size:13px">
              Model transcript ({props.calls.length} {props.calls.length === 1 ? 'call' : 'calls'}): <a href={relativeUrl(run.transcript)}>{run.transcript}</a>
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
                <StepCard step={step} startedAt={run.started_at} calls={props.calls.filter((call) => call.step === step.index)} transcript={run.transcript} />
              ))}
              {run.result ? (
                <StepCard step={run.result} startedAt={run.started_at} final calls={props.calls.filter((call) => call.step >= run.result!.index)} transcript={run.transcript} />
              ) : null}
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

export function Fact(props: { label: string; value: string }) {
  return (
    <div>
      <span>{props.label}</span>
      <span class="v">{props.value}</span>
    </div>
  )
}

/** ✓ passed, ✗ failed, ○ unscored (a judged check without a verdict). */
