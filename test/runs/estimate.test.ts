import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { estimateRun, readHistory, renderEstimate, RunEstimate} from '../../src/runs/estimate.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { runScript } from '../grader/run-script.ts'
import { record, writeRunFolder, type RecordInput } from './fixtures.ts'
import { noVariantsName, taskKeyOfTestName } from '../../src/task/test-name.ts'

const CUA = 'name: openai-chat\nmodel: gpt-x\n'

/** An attempt of openai-chat with gpt-x (unless overridden) that used these tokens. */
function attempt(id: string, input_tokens: number, output_tokens: number, more: Partial<RecordInput> = {}): TestCaseRun {
  return record({ id, agent_yaml: CUA, agent_model: 'gpt-x', input_tokens, output_tokens, ...more })
}

/**
 * A results folder with two runs of openai-chat/gpt-x, one of another model, one of another agent,
 * and the model cache. Means of openai-chat/gpt-x per attempt: omnizon-1 (1000 + 2000 + 3000) / 3 =
 * 2000 in, 200 out; omnizon-2 3000 in, 300 out (the reused result and the attempt where no agent
 * ran are not counted).
 */
function resultsFolder(): string {
  const results = mkdtempSync(join(tmpdir(), 'agentest-estimate-'))
  writeRunFolder(
    [
      attempt('omnizon-1', 1000, 100),
      attempt('omnizon-2', 3000, 300),
      attempt('omnizon-4', 0, 0, { status: 'skipped', agent_status: 'not_run', variant: null }),
    ],
    results,
    'run-1',
  )
  writeRunFolder(
    [
      attempt('omnizon-1', 2000, 200, { run_id: 'run-2' }),
      attempt('omnizon-1', 3000, 300, { run_id: 'run-2', epoch: 2, status: 'failed' }),
      attempt('omnizon-2', 9000, 900, { run_id: 'run-2', cached: true, cached_from: 'run-1' }),
    ],
    results,
    'run-2',
  )
  writeRunFolder([attempt('omnizon-1', 100_000, 10_000, { agent_model: 'gpt-y', agent_yaml: 'name: openai-chat\nmodel: gpt-y\n' })], results, 'run-other-model')
  writeRunFolder([attempt('omnizon-1', 50_000, 5_000, { agent_yaml: 'name: my-agent\nmodel: gpt-x\n' })], results, 'run-other-agent')
  mkdirSync(join(results, '.model-cache'))
  return results
}

const PRICES = { 'gpt-x': { input: 2, output: 8 } }

describe('estimateRun', () => {
  test('each task at its mean tokens, a new task at the mean of those run before, times epochs and prices', () => {
    const history = readHistory(resultsFolder(), 'openai-chat', 'gpt-x')
    expect(history.runs).toBe(2)
    expect(history.records).toHaveLength(4)
    const e = estimateRun({ tasks: ['omnizon-1', 'omnizon-2', 'omnizon-3'], epochs: 3, agent: 'openai-chat', model: 'gpt-x', prices: PRICES, history: history.records, historyRuns: history.runs })
    // Per attempt: 2000 + 3000 + 2500 (omnizon-3 at the mean of the other two) = 7500 in, 750 out; three epochs.
    expect(e).toMatchObject({ tasks: 3, epochs: 3, attempts: 9, input_tokens: 22_500, output_tokens: 2_250, note: null })
    expect(e.history).toEqual({ tasks_with_history: 2, attempts: 4, runs: 2 })
    // 22 500 × $2/M + 2 250 × $8/M = $0.045 + $0.018.
    expect(e.cost_usd).toBeCloseTo(0.063, 10)
    expect(e.per_task).toEqual([
      { key: 'omnizon-1', earlier_attempts: 3, tokens: { input_tokens: 2000, output_tokens: 200 } },
      { key: 'omnizon-2', earlier_attempts: 1, tokens: { input_tokens: 3000, output_tokens: 300 } },
      { key: 'omnizon-3', earlier_attempts: 0, tokens: null },
    ])
    expect(RunEstimate.parse(JSON.parse(JSON.stringify(e)))).toEqual(e)
    expect(renderEstimate(e, 'runs')).toEqual([
      'estimate for agent openai-chat · model gpt-x: agent tokens, every attempt run afresh (reused results cost nothing)',
      'tasks  epochs  attempts  input tokens  output tokens     cost',
      '    3       3         9        22,500          2,250  $0.0630',
      'history: 2 of 3 tasks run before (4 earlier attempts in 2 runs under runs); the others at their mean',
    ])
  })

  test('no selected task run before: the mean over every task that was', () => {
    const { records } = readHistory(resultsFolder(), 'openai-chat', 'gpt-x')
    const e = estimateRun({ tasks: ['omnizon-7'], epochs: 1, agent: 'openai-chat', model: 'gpt-x', prices: PRICES, history: records })
    expect(e).toMatchObject({ input_tokens: 2500, output_tokens: 250, history: { tasks_with_history: 0 } })
  })

  test('a model without a price, no history, and an agent that uses no tokens', () => {
    const { records } = readHistory(resultsFolder(), 'openai-chat', 'gpt-x')
    const unpriced = estimateRun({ tasks: ['omnizon-1'], epochs: 1, agent: 'openai-chat', model: 'gpt-x', prices: {}, history: records })
    expect(unpriced).toMatchObject({ input_tokens: 2000, cost_usd: null, note: 'no price for gpt-x (add it under prices: in the config)' })
    const none = estimateRun({ tasks: ['omnizon-1'], epochs: 2, agent: 'openai-chat', model: 'gpt-z', prices: PRICES, history: [] })
    expect(none).toMatchObject({ attempts: 2, input_tokens: null, cost_usd: null, note: 'no earlier runs of agent openai-chat with model gpt-z to estimate tokens from' })
    expect(renderEstimate(none, 'runs').slice(2)).toEqual([
      '    1       2         2             —              —     —',
      'history: no earlier attempts of agent openai-chat with model gpt-z under runs: tokens and cost unknown',
    ])
    expect(renderEstimate(unpriced, 'runs').at(-1)).toBe('no price for gpt-x (add it under prices: in the config)')
    const oracle = estimateRun({ tasks: ['omnizon-1'], epochs: 1, agent: 'oracle', model: null, prices: {}, history: [record({ id: 'omnizon-1' })] })
    expect(oracle).toMatchObject({ input_tokens: 0, cost_usd: 0, note: null })
  })

  test('task keys from the names Vitest lists', () => {
    expect(taskKeyOfTestName('omnizon-2: orders the first three results')).toBe('omnizon-2')
    expect(taskKeyOfTestName('omnizon-2: orders [three] results [epoch 2/3]')).toBe('omnizon-2')
    expect(taskKeyOfTestName('omnizon-8: buys it [near miss: wrong item] [epoch 1/2]')).toBe('omnizon-8--wrong-item')
    expect(taskKeyOfTestName('omnizon-8: buys it [alternative: via search]')).toBe('omnizon-8--via-search')
    expect(taskKeyOfTestName(noVariantsName('omnizon-9', 'buys it', 'near miss'))).toBeNull()
    expect(noVariantsName('omnizon-9', 'buys it', 'near miss')).toBe('omnizon-9: buys it [no near misses]')
    expect(taskKeyOfTestName('omnizon-9: buys it [no alternatives]')).toBeNull()
  })
})

describe('npm run estimate', { timeout: 120_000 }, () => {
  test('lists the selected tasks and prices them from the config', async () => {
    const results = resultsFolder()
    const config = join(results, 'estimate.config.yaml')
    writeFileSync(config, `agent: { name: openai-chat, model: gpt-x }\nrun: { results_dir: ${results}, epochs: 2 }\nprices: { gpt-x: { input: 2, output: 8 } }\n`)
    const run = await runScript('estimate.ts', ['tasks/omnizon', '-t', 'omnizon-(1|2|3)\\b', '--json'], { AGENTEST_CONFIG: config })
    expect(run.code, run.stderr).toBe(0)
    const e = RunEstimate.parse(JSON.parse(run.stdout))
    // Per attempt 2000 + 3000 + 2500 = 7500 in, 750 out; two epochs: 15 000 × $2/M + 1 500 × $8/M.
    expect(e).toMatchObject({ tasks: 3, epochs: 2, attempts: 6, input_tokens: 15_000, output_tokens: 1_500 })
    expect(e.cost_usd).toBeCloseTo(0.042, 10)
    expect(e.per_task.map((t) => t.key)).toEqual(['omnizon-1', 'omnizon-2', 'omnizon-3'])
  })
})
