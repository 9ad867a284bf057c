import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TestCaseRun } from '../../src/schema/run.ts'
import { recordKey } from '../../src/schema/task.ts'
import { NEEDS_GRADER, toCheckResult } from '../../src/grading/judge/check-result.ts'
import { unscored } from '../../src/grading/grader/vote.ts'

export type RecordInput = Partial<TestCaseRun> & Pick<TestCaseRun, 'id'>

/** A TestCaseRun valid per the schema: an Omnizon retrieval task that passed, unless overridden. */
export function record(input: RecordInput): TestCaseRun {
  return TestCaseRun.parse({
    name: `task ${input.id}`,
    category: 'omnizon',
    level: null,
    task: `Do task ${input.id}.`,
    setup_cmd: null,
    desktop_image: null,
    checks: [],
    app: 'omnizon',
    start_path: '/',
    difficulty: 'easy',
    challenge_type: 'retrieval',
    max_steps: 10,
    variant: null,
    schema_version: 1,
    run_id: 'run-a',
    test_name: `${input.id}: task`,
    file: `tasks/omnizon/${input.id}.task.ts`,
    agent_yaml: 'name: oracle\nmodel: null\n',
    agent_model: null,
    status: 'passed',
    agent_status: 'done',
    trajectory: [],
    result: null,
    final_answer: null,
    final_state: null,
    transcript: null,
    check_results: [],
    command_output_check_results: [],
    input_tokens: 0,
    output_tokens: 0,
    ai_score: -1,
    ai_comment: null,
    human_score: -1,
    human_comment: null,
    validation_input_tokens: 0,
    validation_output_tokens: 0,
    error: null,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:10.000Z',
    duration_ms: 10_000,
    ...input,
  })
}

/** Skipped because its judged check got no verdict: a run without a grader, unless another reason (a grader fault) is given. */
export function unscoredRecord(input: RecordInput, reason = NEEDS_GRADER): TestCaseRun {
  const spec = { type: 'returned_result' as const, value: 'explains the choice' }
  return record({ status: 'skipped', checks: [spec], check_results: [toCheckResult('explains the choice', spec, unscored(reason))], ...input })
}

/** A fresh run folder holding one <key>.json per record, as the reporter writes them. */
export function writeRunFolder(records: readonly TestCaseRun[], parent = mkdtempSync(join(tmpdir(), 'agentest-runs-')), name = 'run'): string {
  const dir = join(parent, name)
  mkdirSync(dir, { recursive: true })
  for (const r of records) writeFileSync(join(dir, `${recordKey(r)}.json`), `${JSON.stringify(r, null, 2)}\n`)
  return dir
}
