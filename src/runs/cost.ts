import type { Prices } from '../schema/config.ts'
import type { TestCaseRun } from '../schema/run.ts'

/**
 * What the run cost in USD, from the config's price table: agent tokens at the agent model's
 * price, grader tokens at each voting model's. A model without a price makes its side null.
 */
export function runCost(runs: readonly TestCaseRun[], prices: Prices): { agent: number | null; grader: number | null } {
  const price = (model: string | null, input: number, output: number): number | null => {
    if (input === 0 && output === 0) return 0
    const p = model ? prices[model] : undefined
    return p ? (input * p.input + output * p.output) / 1_000_000 : null
  }
  const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b)
  let agent: number | null = 0
  let grader: number | null = 0
  for (const run of runs) {
    agent = add(agent, price(run.agent_model, run.input_tokens, run.output_tokens))
    for (const vote of run.check_results.flatMap((c) => c.judge?.votes ?? [])) {
      grader = add(grader, price(vote.model, vote.input_tokens, vote.output_tokens))
    }
  }
  return { agent, grader }
}
