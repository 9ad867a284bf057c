import { mkdtempSync, appendFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config/index.ts'
import { LimitsConfig } from '../../src/schema/config.ts'
import { addRunSpend, describeLimits, runLimitReached, runSpend, taskLimitReached } from '../../src/limits/index.ts'
import { folderWith, errorOf } from '../support/config-folder.ts'

const PRICES = { 'gpt-x': { input: 2, output: 10 } }
const limits = (set: Partial<LimitsConfig>) => LimitsConfig.parse(set)

describe('budgets beside max_steps', () => {
  test('a task past its token limit, and not at it', () => {
    const cap = limits({ task_tokens: 1000 })
    expect(taskLimitReached(cap, PRICES, 'gpt-x', { input: 900, output: 100 })).toBeNull()
    expect(taskLimitReached(cap, PRICES, 'gpt-x', { input: 900, output: 101 })).toEqual({
      kind: 'token_limit',
      message: 'the task used 1001 agent tokens, over its limit of 1000 (limits.task_tokens)',
    })
  })

  test('a task past its cost limit, priced per million tokens of the model it used', () => {
    const cap = limits({ task_cost_usd: 0.01 })
    // 4000 in at $2/M + 200 out at $10/M = $0.010: not over.
    expect(taskLimitReached(cap, PRICES, 'gpt-x', { input: 4000, output: 200 })).toBeNull()
    expect(taskLimitReached(cap, PRICES, 'gpt-x', { input: 4000, output: 201 })?.kind).toBe('cost_limit')
    expect(taskLimitReached(cap, PRICES, 'gpt-x', { input: 4000, output: 201 })?.message).toBe(
      "the task spent $0.0100 on the agent's model, over its limit of $0.01 (limits.task_cost_usd)",
    )
  })

  test('the run limit is its own kind, whichever budget it was', () => {
    const cap = limits({ run_tokens: 50, run_cost_usd: 100 })
    expect(runLimitReached(cap, PRICES, 'gpt-x', { input: 40, output: 11 })).toEqual({
      kind: 'run_limit',
      message: 'the run used 51 agent tokens, over its limit of 50 (limits.run_tokens)',
    })
    expect(runLimitReached(cap, PRICES, 'gpt-x', { input: 40, output: 10 })).toBeNull()
  })

  test('the run spend adds up what each task appended, and skips a torn line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-spend-'))
    expect(runSpend(dir)).toEqual({ input: 0, output: 0 })
    addRunSpend(dir, { input: 100, output: 5 })
    addRunSpend(dir, { input: 0, output: 0 })
    addRunSpend(dir, { input: 20, output: 1 })
    appendFileSync(join(dir, '.spend.jsonl'), '{"input": 9')
    expect(runSpend(dir)).toEqual({ input: 120, output: 6 })
  })

  test('the banner names the limits in force', () => {
    expect(describeLimits(limits({}))).toBeNull()
    expect(describeLimits(limits({ task_tokens: 200000, run_cost_usd: 5 }))).toBe('limits 200000 tokens/task · $5/run')
  })
})

describe('limits in the config', () => {
  test('from the YAML and from AGENTEST_* variables', () => {
    const dir = folderWith({ agent: { name: 'nop', model: 'gpt-x' }, prices: PRICES, limits: { task_tokens: 1000 } })
    const { config } = loadConfig(dir, { AGENTEST_RUN_COST_USD: '2.5' })
    expect(config.limits).toEqual({ task_tokens: 1000, task_cost_usd: null, run_tokens: null, run_cost_usd: 2.5 })
  })

  test('a cost limit without a price for the agent model is one line naming the field', () => {
    const dir = folderWith({ agent: { name: 'nop', model: 'gpt-y' }, prices: PRICES, limits: { task_cost_usd: 1 } })
    expect(errorOf(() => loadConfig(dir, {}))).toMatch(/^agentest\.config\.yaml: limits\.task_cost_usd: needs the price of the agent's model gpt-y in prices/)
  })

  test('a misspelt limit gets a did-you-mean, a negative one the rule', () => {
    expect(errorOf(() => loadConfig(folderWith({ limits: { task_token: 10 } }), {}))).toMatch(/limits.*task_token/)
    expect(errorOf(() => loadConfig(folderWith({}), { AGENTEST_TASK_TOKENS: '-5' }))).toMatch(/^AGENTEST_TASK_TOKENS="-5": limits\.task_tokens: /)
  })
})
