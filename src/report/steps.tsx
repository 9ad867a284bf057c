/** @jsxImportSource hono/jsx */
import { describeAction } from '../computer/computer.ts'
import type { Step } from '../schema/run.ts'
import { formatDuration, relativeUrl } from './format.ts'
import type { ModelCallSummary } from '../transcript/read.ts'

export function StepCard(props: { step: Step; startedAt: string; final?: boolean; calls?: ModelCallSummary[]; transcript?: string | null }) {
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
        {(props.calls ?? []).map((call) => (
          <ModelCall call={call} transcript={props.transcript ?? null} />
        ))}
      </figcaption>
    </figure>
  )
}

/** The model call that led to a step: its timing, tokens and answer, folded; the full call is in the transcript. */
function ModelCall(props: { call: ModelCallSummary; transcript: string | null }) {
  const { call } = props
  const tokens = call.usage ? ` · ${call.usage.input_tokens} in / ${call.usage.output_tokens} out` : ''
  const status = call.status !== null && call.status !== 200 ? ` · HTTP ${call.status}` : ''
  return (
    <details class="model-call">
      <summary>
        model call {call.call}
        {call.attempt > 1 ? ` (attempt ${call.attempt})` : ''} · {formatDuration(call.durationMs)}
        {tokens}
        {status}
      </summary>
      <pre>{call.said}</pre>
      {props.transcript ? <a href={relativeUrl(props.transcript)}>transcript</a> : null}
    </details>
  )
}
