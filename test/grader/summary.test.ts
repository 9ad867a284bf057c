import { describe, expect, test } from 'vitest'
import { runCost } from '../../src/runs/cost.ts'
import { tally } from '../../src/runs/stats.ts'
import { buildSummary, renderTable } from '../../reporters/summary.ts'
import { toCheckResult } from '../../src/grading/judge/check-result.ts'
import { decide, unscored } from '../../src/grading/grader/vote.ts'
import { Config, type ResolvedRun } from '../../src/schema/config.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'

const SPEC = { type: 'returned_result' as const, value: 'explains it' }
const vote = (model: string, score: 1 | 0) => ({ model, score, comment: 'ok', checklist: [], error: null, input_tokens: 1_000_000, output_tokens: 100_000 })

function run(id: string, status: TestCaseRun['status'], judged: 'pass' | 'unscored' | null, agentModel: string | null = 'agent-m'): TestCaseRun {
  const check_results =
    judged === 'pass' ? [toCheckResult('judged', SPEC, decide([vote('judge-m', 1)]))] : judged === 'unscored' ? [toCheckResult('judged', SPEC, unscored('needs a grader model'))] : []
  const judgedTokens = judged === 'pass' ? { validation_input_tokens: 1_000_000, validation_output_tokens: 100_000 } : { validation_input_tokens: 0, validation_output_tokens: 0 }
  return { id, status, file: `tasks/omnizon/${id}.task.ts`, variant: null, epoch: 1, level: null, difficulty: 'easy', category: 'omnizon', check_results, agent_model: agentModel, input_tokens: 2_000_000, output_tokens: 0, duration_ms: 1000, ...judgedTokens } as unknown as TestCaseRun
}

describe('the summary with judged tasks', () => {
  const runs = [run('a', 'passed', 'pass'), run('b', 'skipped', 'unscored'), run('c', 'skipped', null), run('d', 'failed', null)]

  test('unscored tasks are counted apart from passes, failures and other skips', () => {
    // b's judged check had no grader: it is unscored, and set aside from both rates.
    expect(tally(runs)).toEqual({
      total: 4,
      passed: 1,
      failed: 1,
      error: 0,
      timeout: 0,
      aborted: 0,
      faulted: 0,
      faults: {},
      skipped: 1,
      unscored: 1,
      cached: 0,
      judged_without_grader: { total: 1, failed: 0 },
      scored: 2,
      success_rate: 0.5,
      strict_success_rate: 0.5,
    })
  })

  test('grader tokens and, with a price table, the cost of agent and grader', () => {
    expect(runCost(runs, { 'agent-m': { input: 1, output: 2 }, 'judge-m': { input: 2, output: 8 } })).toEqual({ agent: 8, grader: 2.8 })
    expect(runCost(runs, { 'agent-m': { input: 1, output: 2 } })).toEqual({ agent: 8, grader: null })

    const config = Config.parse({ prices: { 'agent-m': { input: 1, output: 2 }, 'judge-m': { input: 2, output: 8 } } })
    const resolved: ResolvedRun = { config, run_id: 'r', root: '/', results_path: '/r', config_file: null, agent_modules: {}, agent_commands: {}, agent_image: null, attach_screenshots: false }
    const summary = buildSummary(runs, resolved, new Date())
    expect(summary.tokens).toMatchObject({ validation_input: 1_000_000, validation_output: 100_000 })
    expect(summary.cost).toEqual({ agent: 8, grader: 2.8 })
    const table = renderTable(summary)
    expect(table.find((l) => l.includes('tasks  passed'))).toMatch(/skipped  unscored  passed\/scored  unscored as failed$/)
    expect(table.at(-1)).toBe('  tokens: agent 8000000 in / 0 out ($8.0000) · grader 1000000 in / 100000 out ($2.8000)')

    const unpriced = buildSummary(runs, { ...resolved, config: Config.parse({}) }, new Date())
    expect(unpriced).not.toHaveProperty('cost')
    expect(renderTable(unpriced).at(-1)).toBe('  tokens: agent 8000000 in / 0 out · grader 1000000 in / 100000 out')
  })
})
