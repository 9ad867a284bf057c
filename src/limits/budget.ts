import type { Config, LimitsConfig, Prices } from '../schema/config.ts'

/** Which budget stopped a task: its own tokens or spend, or the run's (the task never started). */
export type LimitKind = 'token_limit' | 'cost_limit' | 'run_limit'

export interface LimitHit {
  kind: LimitKind
  message: string
}

/** Agent tokens spent so far. */
export interface Spend {
  input: number
  output: number
}

/** The agent went past a budget; thrown into its loop so it stops there. */
export class LimitReachedError extends Error {
  override name = 'LimitReachedError'
  constructor(readonly hit: LimitHit) {
    super(hit.message)
  }
}

/** USD for these tokens at the model's rate (prices are per million tokens), or null without a price. */
export function costOf(spend: Spend, model: string | null, prices: Prices): number | null {
  const price = model ? prices[model] : undefined
  return price ? (spend.input * price.input + spend.output * price.output) / 1_000_000 : null
}

/** A cost limit needs a price for the agent's model, or it could never be enforced: why not, or null. */
export function unpricedCostLimit(config: Config): string | null {
  const { limits, prices, agent } = config
  const field = limits.task_cost_usd !== null ? 'limits.task_cost_usd' : limits.run_cost_usd !== null ? 'limits.run_cost_usd' : null
  if (!field || (agent.model && prices[agent.model])) return null
  const model = agent.model ?? '<model>'
  return `${field}: needs the price of the agent's model${agent.model ? ` ${agent.model}` : ' (agent.model is not set)'} in prices, e.g. prices: { "${model}": { input: 2.5, output: 10 } } (USD per million tokens)`
}

/** The task's own budget, once its spend went past it. */
export function taskLimitReached(limits: LimitsConfig, prices: Prices, model: string | null, spend: Spend): LimitHit | null {
  return over(limits.task_tokens, limits.task_cost_usd, prices, model, spend, 'the task', 'task')
}

/** The run's budget, once the finished tasks' spend went past it: no new task starts. */
export function runLimitReached(limits: LimitsConfig, prices: Prices, model: string | null, spend: Spend): LimitHit | null {
  const hit = over(limits.run_tokens, limits.run_cost_usd, prices, model, spend, 'the run', 'run')
  return hit ? { kind: 'run_limit', message: hit.message } : null
}

function over(tokenLimit: number | null, costLimit: number | null, prices: Prices, model: string | null, spend: Spend, who: string, scope: 'task' | 'run'): LimitHit | null {
  const tokens = spend.input + spend.output
  if (tokenLimit !== null && tokens > tokenLimit) {
    return { kind: 'token_limit', message: `${who} used ${tokens} agent tokens, over its limit of ${tokenLimit} (limits.${scope}_tokens)` }
  }
  const cost = costLimit === null ? null : costOf(spend, model, prices)
  if (costLimit !== null && cost !== null && cost > costLimit) {
    return { kind: 'cost_limit', message: `${who} spent $${cost.toFixed(4)} on the agent's model, over its limit of $${costLimit} (limits.${scope}_cost_usd)` }
  }
  return null
}

/** The limits in force, for the run's banner: "limits 200000 tokens/task · $5/run", or null when none. */
export function describeLimits(limits: LimitsConfig): string | null {
  const parts = [
    limits.task_tokens !== null ? `${limits.task_tokens} tokens/task` : null,
    limits.task_cost_usd !== null ? `$${limits.task_cost_usd}/task` : null,
    limits.run_tokens !== null ? `${limits.run_tokens} tokens/run` : null,
    limits.run_cost_usd !== null ? `$${limits.run_cost_usd}/run` : null,
  ].filter((part) => part !== null)
  return parts.length ? `limits ${parts.join(' · ')}` : null
}
