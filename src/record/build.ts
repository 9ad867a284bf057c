import type { ResolvedRun } from '../schema/config.ts'
import { TestCaseRun, type RunStatus } from '../schema/run.ts'
import type { TestCase } from '../schema/task.ts'
import { agentYaml } from '../secrets/redact.ts'
import { aiGrading, withJudgedChecks } from '../grading/index.ts'
import { TaskRecord } from './schema.ts'

/** What a record must say; everything else has its empty value (no steps, no answer, no tokens). */
export type RecordFields = Pick<TaskRecord, 'agent_status' | 'error'> & Partial<TaskRecord>

/**
 * A task's record: the run's agent and the task's step budget, then `fields`. The one place a
 * record is made, by the session, a task that never started, an orphan and the reporter alike.
 */
export function taskRecord(run: ResolvedRun, testCase: Pick<TestCase, 'max_steps'>, fields: RecordFields): TaskRecord {
  const now = new Date().toISOString()
  const started = fields.started_at ?? now
  const finished = fields.finished_at ?? now
  return TaskRecord.parse({
    run_id: run.run_id,
    agent_yaml: agentYaml(run.config.agent),
    agent_model: run.config.agent.model,
    max_steps: run.config.max_steps ?? testCase.max_steps,
    trajectory: [],
    result: null,
    final_answer: null,
    final_state: null,
    check_results: [],
    command_output_check_results: [],
    input_tokens: 0,
    output_tokens: 0,
    duration_ms: Math.max(0, Date.parse(finished) - Date.parse(started)),
    ...fields,
    started_at: started,
    finished_at: finished,
  })
}

/** How the test named the task and how it ended, as the reporter (or the orphan collector) saw it. */
export interface Reported {
  test_name: string
  file: string
  status: RunStatus
  error: TaskRecord['error']
}

/** The TestCaseRun of a task: its declaration, its record, and how the test ended. */
export function testCaseRun(task: TestCase, record: TaskRecord, reported: Reported): TestCaseRun {
  return TestCaseRun.parse({
    ...task,
    // Judged checks are kept with their kind and rubric, so the run can be re-graded from its evidence.
    checks: withJudgedChecks(task.checks, record.check_results),
    ...record,
    schema_version: 1,
    ...reported,
    ...aiGrading(record.check_results),
    human_score: -1,
    human_comment: null,
  })
}
