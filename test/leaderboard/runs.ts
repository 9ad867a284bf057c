import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { summarize } from '../../src/runs/summarize.ts'
import type { Prices } from '../../src/schema/config.ts'
import type { CheckResult, TestCaseRun } from '../../src/schema/run.ts'
import { recordKey } from '../../src/schema/task.ts'
import { record, type RecordInput } from '../runs/fixtures.ts'

export interface RunSpec {
  /** The folder's name and the run id. */
  name: string
  agent: string
  model: string | null
  /** grader.model in the run's config.yaml; undefined writes no config.yaml. */
  configGrader?: string | null
  /** The price table the summary is priced with; none leaves its cost out. */
  prices?: Prices
  /** Write no summary.json (a run still going, or killed). */
  noSummary?: boolean
  records: RecordInput[]
}

/**
 * A run folder under `resultsDir` as a real run leaves it: a TestCaseRun JSON per record (run id,
 * agent and model filled in), the summary.json `summarize` makes of them, and, when asked, a
 * config.yaml naming the grader as plugin/global-setup.ts writes it. Returns the folder.
 */
export function writeRun(resultsDir: string, spec: RunSpec): string {
  const dir = join(resultsDir, spec.name)
  mkdirSync(dir, { recursive: true })
  const agentYaml = stringify({ name: spec.agent, model: spec.model })
  const records: TestCaseRun[] = spec.records.map((input) =>
    record({ run_id: spec.name, agent_yaml: agentYaml, agent_model: spec.model, input_tokens: 1000, output_tokens: 500, ...input }),
  )
  for (const r of records) writeFileSync(join(dir, `${recordKey(r)}.json`), `${JSON.stringify(r, null, 2)}\n`)
  if (!spec.noSummary) {
    const summary = summarize(records, {
      run_id: spec.name,
      agent: spec.agent,
      agent_model: spec.model,
      started_at: '2026-03-01T10:00:00.000Z',
      finished_at: '2026-03-01T10:10:00.000Z',
      prices: spec.prices ?? {},
    })
    writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
  }
  if (spec.configGrader !== undefined) {
    const config = { agent: { name: spec.agent, model: spec.model }, grader: { model: spec.configGrader, api_key_env: 'OPENAI_API_KEY' } }
    writeFileSync(join(dir, 'config.yaml'), `# The resolved settings of this run (secrets redacted).\n${stringify({ run_id: spec.name, config })}`)
  }
  return dir
}

/** A judged check that `model` voted on: passed or failed, with 100 input and 10 output tokens. */
export function judged(model: string, passed: boolean): Pick<TestCaseRun, 'check_results' | 'validation_input_tokens' | 'validation_output_tokens'> {
  const score = passed ? 1 : 0
  const check: CheckResult = {
    check: 'explains the choice',
    passed,
    score,
    message: null,
    input_tokens: 100,
    output_tokens: 10,
    judge: {
      type: 'returned_result',
      value: 'explains the choice',
      votes: [{ model, score, comment: null, checklist: [], error: null, input_tokens: 100, output_tokens: 10 }],
      error: null,
    },
  }
  return { check_results: [check], validation_input_tokens: 100, validation_output_tokens: 10 }
}
