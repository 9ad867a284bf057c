/** @jsxImportSource hono/jsx */
import type { CheckResult, CommandOutputCheckResult, TestCaseRun } from '../schema/run.ts'
import type { JudgedCheck, Vote } from '../schema/grading.ts'
import { formatCount, formatScore } from './format.ts'
import { Section, Fact } from './task.tsx'

export function checkMark(check: CheckResult): '✓' | '✗' | '○' {
  if (check.score === -1) return '○'
  return check.passed ? '✓' : '✗'
}

export function CheckItem(props: { check: CheckResult }) {
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
        <CheckValues check={check} />
      </div>
      {check.judge ? <JudgeDetails judge={check.judge} /> : null}
    </li>
  )
}

/**
 * The check's message without what the report already shows: the check's own name, which
 * expect() puts in front of its message, and a judged check's comment or error, shown with the judge.
 */
export function checkMessage(check: CheckResult): string | null {
  let message = check.message
  if (!message) return null
  if (message.startsWith(`${check.check}: `)) message = message.slice(check.check.length + 2)
  if (check.judge?.votes.some((vote) => vote.comment === message)) return null
  if (check.judge?.error && message.includes(check.judge.error)) return null
  return message.trim() === '' ? null : message
}

/**
 * A failed comparison in full: the diff of objects and multi-line strings (the values behind a
 * fold, as the diff shows only the changed lines), else the two values.
 */
export function CheckValues(props: { check: CheckResult }) {
  const { diff, expected, received } = props.check
  const values =
    expected !== undefined && received !== undefined ? (
      <dl class="check-values">
        <dt class="d-exp">Expected</dt>
        <dd>
          <pre>{expected}</pre>
        </dd>
        <dt class="d-rec">Received</dt>
        <dd>
          <pre>{received}</pre>
        </dd>
      </dl>
    ) : null
  if (!diff) return values
  return (
    <>
      <pre class="check-diff">
        {diff.split('\n').map((line) => (
          <span class={line.startsWith('-') ? 'd-exp' : line.startsWith('+') ? 'd-rec' : undefined}>{`${line}\n`}</span>
        ))}
      </pre>
      {values ? (
        <details>
          <summary>expected and received in full</summary>
          {values}
        </details>
      ) : null}
    </>
  )
}

export const JUDGE_KIND: Record<JudgedCheck['type'], string> = {
  returned_result: 'the answer',
  final_screenshot: 'the final screen',
  expected_flow: 'the flow',
  command_output: 'a command output',
}

export function JudgeDetails(props: { judge: JudgedCheck }) {
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

export function VoteItem(props: { vote: Vote }) {
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

export function CommandOutput(props: { output: CommandOutputCheckResult }) {
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

export function Grading(props: { run: TestCaseRun }) {
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
