import { describe, expect, test } from 'vitest'
import { ModelCallError } from '../../src/agents/shared/client.ts'
import { LimitReachedError } from '../../src/limits/index.ts'
import { agentStatusOf } from '../../src/record/index.ts'
import { stopReason, type StopFacts } from '../../src/task/stop-reason.ts'
import { BlockedUrlError, SandboxGoneError, StepLimitError, TaskAbortedError } from '../../src/trajectory/recording-computer.ts'

/** How a run that threw is on record: the one order of precedence, and the status the record's table gives it. */
const facts = (over: Partial<StopFacts> = {}): StopFacts => ({
  gone: null,
  limitHit: null,
  signal: new AbortController().signal,
  redact: (text) => text.replaceAll('sk-secret', '[redacted]'),
  ...over,
})
const aborted = (reason: string) => {
  const controller = new AbortController()
  controller.abort(new Error(reason))
  return controller.signal
}
const dead = { kind: 'sandbox_gone' as const, message: 'the container was killed' }

describe('why the agent stopped', () => {
  test('each way a run ends has its kind, and the status the record gives it', () => {
    const cases: Array<[unknown, Partial<StopFacts>, string, string]> = [
      [new StepLimitError('out of steps'), { gone: dead }, 'max_steps', 'max_steps'],
      [new LimitReachedError({ kind: 'token_limit', message: 'over 10 tokens' }), {}, 'token_limit', 'error'],
      [new Error('anything'), { limitHit: { kind: 'cost_limit', message: 'over $1' } }, 'cost_limit', 'error'],
      [new TaskAbortedError('interrupted'), { signal: aborted('SIGINT') }, 'aborted', 'aborted'],
      [new TaskAbortedError('Test timed out in 5000ms'), { signal: aborted('Test timed out in 5000ms') }, 'timeout', 'timeout'],
      // A timeout that a dead sandbox caused is on record as that fault.
      [new TaskAbortedError('Test timed out in 5000ms'), { signal: aborted('Test timed out in 5000ms'), gone: dead }, 'sandbox_gone', 'error'],
      [new BlockedUrlError('blocked http://127.0.0.1/finish'), { gone: dead }, 'blocked_url', 'error'],
      [new SandboxGoneError(dead), {}, 'sandbox_gone', 'error'],
      [new ModelCallError('503 from the model'), {}, 'model_error', 'error'],
      [new Error('the agent crashed'), {}, 'agent_error', 'error'],
    ]
    for (const [error, over, kind, status] of cases) {
      const reason = stopReason(error, facts(over))
      expect([reason.kind, agentStatusOf(reason, 'run')], String(error)).toEqual([kind, status])
    }
  })

  test('the message is scrubbed of the run\'s secrets', () => {
    expect(stopReason(new Error('bad key sk-secret'), facts()).message).toBe('bad key [redacted]')
  })
})
