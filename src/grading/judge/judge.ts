import type { CheckResult } from '../../schema/run.ts'
import type { CheckSpec } from '../../schema/task.ts'
import type { Evidence } from '../evidence/evidence.ts'
import type { Grader } from '../grader/grader.ts'
import { commandOf } from '../grader/prompt.ts'
import { unscored, type Judgement } from '../grader/vote.ts'
import type { RecordCheck } from '../recording-expect.ts'
import { checkName, NEEDS_GRADER, toCheckResult } from './check-result.ts'

export interface JudgeDeps {
  /** null: no grader is configured, and every judged check is unscored. */
  grader: Grader | null
  evidence: Evidence
  record: RecordCheck
  signal?: AbortSignal
}

interface JudgeState {
  pending: Set<Promise<unknown>>
  results: CheckResult[]
}

/**
 * The task body's `judge` fixture: an LLM grader bound to the task's evidence. It is used
 * through judged matchers (`await expect(judge).toPassRubric('...')`); each call is one judged
 * check, recorded with its score (1, 0, or -1 unscored), comment, tokens and votes.
 */
export class Judge {
  private constructor(
    private readonly deps: JudgeDeps,
    private readonly state: JudgeState,
    private readonly label: string | null,
  ) {}

  static create(deps: JudgeDeps): Judge {
    return new Judge(deps, { pending: new Set(), results: [] }, null)
  }

  /** The same judge, naming its next check (from `expect(judge, 'label')`). */
  named(label: string | null): Judge {
    return new Judge(this.deps, this.state, label)
  }

  /** Judges one check and records it. Faults do not throw: they leave the check unscored. */
  check(spec: CheckSpec): Promise<CheckResult> {
    const work = this.judge(spec)
    this.state.pending.add(work)
    void work.catch(() => undefined).finally(() => this.state.pending.delete(work))
    return work
  }

  /** Waits for judged checks still running (matchers that were not awaited). */
  async settled(): Promise<void> {
    while (this.state.pending.size) await Promise.allSettled([...this.state.pending])
  }

  /** Why the task cannot be scored (the first unscored check's reason), or null. */
  unscoredNote(): string | null {
    const first = this.state.results.find((r) => r.score === -1)
    if (!first) return null
    const reason = first.judge?.error ?? 'no verdict'
    return reason === NEEDS_GRADER ? NEEDS_GRADER : `judged check unscored: ${first.check}: ${reason}`
  }

  private async judge(spec: CheckSpec): Promise<CheckResult> {
    const { grader, evidence, signal } = this.deps
    let judgement: Judgement
    if (grader) {
      judgement = await grader.judge(spec, evidence, signal)
    } else {
      // The command still runs, so its output is recorded and the run can be re-graded later.
      if (spec.type === 'command_output') await evidence.commandOutput(commandOf(spec))
      judgement = unscored(NEEDS_GRADER)
    }
    const result = toCheckResult(this.label ?? checkName(spec), spec, judgement)
    this.state.results.push(result)
    await this.deps.record(result)
    return result
  }
}
