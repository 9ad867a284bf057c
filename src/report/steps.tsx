/** @jsxImportSource hono/jsx */
import { describeAction } from '../computer/computer.ts'
import type { Step } from '../schema/run.ts'
import { formatDuration, relativeUrl } from './format.ts'

export function StepCard(props: { step: Step; startedAt: string; final?: boolean }) {
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
