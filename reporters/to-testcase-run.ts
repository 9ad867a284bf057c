import type { TestCase as VitestTestCase } from 'vitest/node'
import type { RunError, TestCaseRun } from '../src/schema/run.ts'
import type { ResolvedRun } from '../src/schema/config.ts'
import type { AgentestMeta } from '../src/task/meta.ts'
import { kindWithoutRecord, runStatusOf, taskRecord, testCaseRun, type TestError } from '../src/record/index.ts'
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
  // A test skipped without running its fixtures was filtered out; there is nothing to report.
  if (result.state === 'skipped' && !meta.record) return null
  if (result.state === 'pending') return null
  // A test that broke before its session wrote a record: Vitest's timing, nothing else.
  const record = meta.record ?? taskRecord(run, meta.task, { agent_status: 'not_run', error: null, agent_yaml: run.config.agent.name, duration_ms: Math.round(test.diagnostic()?.duration ?? 0) })

  const errors = result.errors ?? []
  // Failed checks are reported through expect.soft with their message, after the check's name when it has one.
  const failedChecks = record.check_results.filter((c) => !c.passed)
  const checkMessages = new Set(failedChecks.flatMap((c) => (c.message === null ? [] : [c.message, `${c.check}: ${c.message}`])))
  const isCheck = (error: TestError) => checkMessages.has(plainText(error.message)) || error.name === 'AssertionError'
  const status = runStatusOf(result.state, record.agent_status, errors, isCheck)

  const firstError = errors.find((e) => !isCheck(e)) ?? errors[0]
  const testError: RunError | null = firstError
    ? { kind: isCheck(firstError) ? 'check_failed' : meta.record ? 'error' : kindWithoutRecord(firstError.message), message: oneLine(firstError.message) }
    : null
  // A task skipped at the end of its body (a judged check without a verdict) says why in its note.
  const skipNote = result.state === 'skipped' && result.note ? plainText(result.note) : undefined
  // The agent's own error wins; otherwise the test's (a failed check, or a setup failure).
  const error =
    record.error && record.error.kind !== 'max_steps'
      ? record.error
      : status === 'passed'
        ? null
        : (testError ?? (status === 'skipped' && skipNote ? { kind: 'unscored', message: skipNote } : record.error))
  return testCaseRun(meta.task, record, { test_name: test.fullName, file: test.module.relativeModuleId, status, error })
}

/** The first line, as plain text: the record holds no terminal colours. */
function oneLine(message: string): string {
  const plain = plainText(message)
  return plain.split('\n')[0] ?? plain
}
