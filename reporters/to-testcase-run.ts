import type { TestCase as VitestTestCase } from 'vitest/node'
import { TestCaseRun, type RunStatus, type RunError } from '../src/schema/run.ts'
import type { ResolvedRun } from '../src/schema/config.ts'
import type { AgentestMeta } from '../src/task/meta.ts'
import { aiGrading, withJudgedChecks } from '../src/grading/index.ts'
import { plainText } from '../src/files/plain-text.ts'
import '../src/task/meta.ts'

/**
 * Builds the TestCaseRun of a finished agentest test from its meta and Vitest's result, or
 * null for tests that never ran (filtered out with -t, or not agentest tasks).
 */
export function toTestCaseRun(test: VitestTestCase, run: ResolvedRun): TestCaseRun | null {
  const meta: AgentestMeta | undefined = test.meta().agentest
  if (!meta) return null
  const result = test.result()
  const record = meta.record
  // A test skipped without running its fixtures was filtered out; there is nothing to report.
  if (result.state === 'skipped' && !record) return null
  if (result.state === 'pending') return null

  const errors = result.errors ?? []
  // Failed checks are reported through expect.soft with their message, after the check's name when it has one.
  const failedChecks = (record?.check_results ?? []).filter((c) => !c.passed)
  const checkMessages = new Set(failedChecks.flatMap((c) => (c.message === null ? [] : [c.message, `${c.check}: ${c.message}`])))
  const isCheck = (error: { name?: string; message: string }) => checkMessages.has(plainText(error.message)) || error.name === 'AssertionError'
  const status = statusOf(result.state, record?.agent_status ?? 'not_run', errors, isCheck)

  const firstError = errors.find((e) => !isCheck(e)) ?? errors[0]
  const testError: RunError | null = firstError
    ? { kind: isCheck(firstError) ? 'check_failed' : record ? 'error' : errorKindWithoutRecord(firstError.message), message: oneLine(firstError.message) }
    : null
  const now = new Date().toISOString()
  const duration = test.diagnostic()?.duration ?? 0
  const checkResults = record?.check_results ?? []
  // A task skipped at the end of its body (a judged check without a verdict) says why in its note.
  const skipNote = result.state === 'skipped' && result.note ? plainText(result.note) : undefined

  const candidate: TestCaseRun = {
    ...meta.task,
    // Judged checks are kept with their kind and rubric, so the run can be re-graded from its evidence.
    checks: withJudgedChecks(meta.task.checks, checkResults),
    schema_version: 1,
    run_id: record?.run_id ?? run.run_id,
    test_name: test.fullName,
    file: test.module.relativeModuleId,
    agent_yaml: record?.agent_yaml ?? run.config.agent.name,
    agent_model: record?.agent_model ?? run.config.agent.model,
    max_steps: record?.max_steps ?? meta.task.max_steps,
    status,
    agent_status: record?.agent_status ?? 'not_run',
    trajectory: record?.trajectory ?? [],
    result: record?.result ?? null,
    final_answer: record?.final_answer ?? null,
    final_state: record?.final_state ?? null,
    transcript: record?.transcript ?? null,
    check_results: checkResults,
    command_output_check_results: record?.command_output_check_results ?? [],
    input_tokens: record?.input_tokens ?? 0,
    output_tokens: record?.output_tokens ?? 0,
    ...aiGrading(checkResults),
    human_score: -1,
    human_comment: null,
    // The agent's own error wins; otherwise the test's (a failed check, or a setup failure).
    error:
      record?.error && record.error.kind !== 'max_steps'
        ? record.error
        : status === 'passed'
          ? null
          : (testError ?? (status === 'skipped' && skipNote ? { kind: 'unscored', message: skipNote } : (record?.error ?? null))),
    started_at: record?.started_at ?? now,
    finished_at: record?.finished_at ?? now,
    duration_ms: record?.duration_ms ?? Math.round(duration),
    cache_key: record?.cache_key ?? null,
    cached: record?.cached ?? false,
    cached_from: record?.cached_from ?? null,
    retries: record?.retries ?? [],
  }
  return TestCaseRun.parse(candidate)
}

function statusOf(
  state: 'passed' | 'failed' | 'skipped',
  agentStatus: string,
  errors: ReadonlyArray<{ name?: string; message: string }>,
  isCheck: (error: { name?: string; message: string }) => boolean,
): RunStatus {
  if (agentStatus === 'timeout' || errors.some((e) => /test timed out/i.test(e.message))) return 'timeout'
  if (agentStatus === 'aborted') return 'aborted'
  if (agentStatus === 'error') return 'error'
  if (state === 'skipped') return 'skipped'
  if (state === 'passed') return 'passed'
  // Failed checks make a failure; anything else that broke the test is an error.
  return errors.every(isCheck) ? 'failed' : 'error'
}

/**
 * A test that failed before its session wrote anything: its worker died under it (Vitest's
 * words for a killed or crashed fork), or something else broke before the sandbox existed.
 */
function errorKindWithoutRecord(message: string): string {
  return /worker .*(exited|emitted error)|Worker exited unexpectedly|Channel closed|process exited/i.test(message) ? 'worker_killed' : 'error'
}

/** The first line, as plain text: the record holds no terminal colours. */
function oneLine(message: string): string {
  const plain = plainText(message)
  return plain.split('\n')[0] ?? plain
}
