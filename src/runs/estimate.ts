import { existsSync } from 'node:fs'
import { z } from 'zod'
import type { Prices } from '../schema/config.ts'
import type { TestCaseRun } from '../schema/run.ts'
import { taskKey } from '../schema/task.ts'
import { collectRunFolders } from './collect.ts'
import type { Warn } from './folder.ts'
import { storedRunFacts } from './stored-facts.ts'

/** Mean agent tokens of one attempt. */
export const AttemptTokens = z.object({ input_tokens: z.number().nonnegative(), output_tokens: z.number().nonnegative() })
export type AttemptTokens = z.infer<typeof AttemptTokens>

/** What `npm run estimate -- [filters] --json` prints: the run the filters select, before it runs. */
export const RunEstimate = z.object({
  schema_version: z.literal(1),
  agent: z.string(),
  model: z.string().nullable(),
  /** Tasks selected (id plus variant), each run `epochs` times. */
  tasks: z.number().int().nonnegative(),
  epochs: z.number().int().positive(),
  attempts: z.number().int().nonnegative(),
  history: z.object({
    /** Of `tasks`, those with earlier attempts by the same agent and model. */
    tasks_with_history: z.number().int().nonnegative(),
    /** Earlier attempts the means are taken over (all tasks, selected or not). */
    attempts: z.number().int().nonnegative(),
    /** Run folders they came from. */
    runs: z.number().int().nonnegative(),
  }),
  /** Estimated agent tokens of the whole run; null without any history to go by. */
  input_tokens: z.number().int().nonnegative().nullable(),
  output_tokens: z.number().int().nonnegative().nullable(),
  /** USD at the config's `prices`; null without history or without a price for the model. */
  cost_usd: z.number().nonnegative().nullable(),
  /** Why a figure is missing, or null. */
  note: z.string().nullable(),
  per_task: z.array(z.object({ key: z.string(), earlier_attempts: z.number().int().nonnegative(), tokens: AttemptTokens.nullable() })),
})
export type RunEstimate = z.infer<typeof RunEstimate>

export interface EstimateInput {
  /** Task keys (id plus variant) the run would run, each once. */
  tasks: readonly string[]
  epochs: number
  agent: string
  model: string | null
  prices: Prices
  /** Earlier attempts of this agent and model (see readHistory). */
  history: readonly TestCaseRun[]
  /** How many run folders the history came from. */
  historyRuns?: number
}

/**
 * Expected tokens and cost of a run: each task's mean tokens over its earlier attempts; a task
 * never run takes the mean over the selected tasks that were (or, when none was, over every task
 * in the history), so the estimate leans on the suite at hand. Agent tokens only: the grader's
 * tokens depend on the checks a run reaches, and a reused (cached) result costs nothing, so this
 * is what a run costs when every attempt runs afresh.
 */
export function estimateRun(input: EstimateInput): RunEstimate {
  const means = meanTokensByTask(input.history)
  // In task order (omnizon-2 before omnizon-10), whatever order Vitest listed the files in.
  const tasks = [...new Set(input.tasks)].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
  const known = tasks.map((key) => means.get(key)).filter((m): m is AttemptTokens => m !== undefined)
  const fallback = average(known.length > 0 ? known : [...means.values()])
  const per_task = tasks.map((key) => {
    const found = means.get(key)
    return { key, earlier_attempts: input.history.filter((r) => taskKey(r) === key).length, tokens: found ?? null }
  })
  const perAttempt = fallback === null ? null : tasks.map((key) => means.get(key) ?? fallback)
  const sum = (pick: (t: AttemptTokens) => number) => (perAttempt === null ? null : Math.round(input.epochs * perAttempt.reduce((s, t) => s + pick(t), 0)))
  const [inputTokens, outputTokens] = [sum((t) => t.input_tokens), sum((t) => t.output_tokens)]
  const { cost, note } = priced(inputTokens, outputTokens, input)
  return RunEstimate.parse({
    schema_version: 1,
    agent: input.agent,
    model: input.model,
    tasks: tasks.length,
    epochs: input.epochs,
    attempts: tasks.length * input.epochs,
    history: { tasks_with_history: known.length, attempts: input.history.length, runs: input.historyRuns ?? 0 },
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cost_usd: cost,
    note,
    per_task,
  })
}

function priced(input: number | null, output: number | null, run: EstimateInput): { cost: number | null; note: string | null } {
  if (input === null || output === null) {
    return { cost: null, note: `no earlier runs of agent ${run.agent}${run.model ? ` with model ${run.model}` : ''} to estimate tokens from` }
  }
  // As runCost: no tokens cost nothing (the oracle), whatever the price table says.
  if (input === 0 && output === 0) return { cost: 0, note: null }
  const price = run.model ? run.prices[run.model] : undefined
  if (!price) return { cost: null, note: run.model ? `no price for ${run.model} (add it under prices: in the config)` : 'no price: the agent names no model' }
  return { cost: (input * price.input + output * price.output) / 1_000_000, note: null }
}

/** Mean tokens per attempt, by task key. */
function meanTokensByTask(history: readonly TestCaseRun[]): Map<string, AttemptTokens> {
  const byTask = new Map<string, AttemptTokens[]>()
  for (const run of history) {
    const key = taskKey(run)
    byTask.set(key, [...(byTask.get(key) ?? []), { input_tokens: run.input_tokens, output_tokens: run.output_tokens }])
  }
  return new Map([...byTask].map(([key, attempts]) => [key, average(attempts)!]))
}

function average(list: readonly AttemptTokens[]): AttemptTokens | null {
  if (list.length === 0) return null
  const mean = (pick: (t: AttemptTokens) => number) => list.reduce((s, t) => s + pick(t), 0) / list.length
  return { input_tokens: mean((t) => t.input_tokens), output_tokens: mean((t) => t.output_tokens) }
}

/**
 * The earlier attempts under a results folder by this agent and model: every run folder's
 * records (collectRunFolders: folders without a record, such as .model-cache, are no runs), less reused results (their tokens are
 * the original's, counted there) and attempts where no agent ran (skipped for want of a sandbox).
 */
export function readHistory(resultsDir: string, agent: string, model: string | null, warn: Warn = (line) => process.stderr.write(`${line}\n`)): { records: TestCaseRun[]; runs: number } {
  const records: TestCaseRun[] = []
  let runs = 0
  if (!existsSync(resultsDir)) return { records, runs }
  for (const folder of collectRunFolders(resultsDir, warn).folders) {
    const facts = storedRunFacts(folder, {})
    if (facts.agent !== agent || facts.agent_model !== model) continue
    const used = folder.records.map((r) => r.run).filter((r) => !r.cached && r.agent_status !== 'not_run')
    if (used.length > 0) runs++
    records.push(...used)
  }
  return { records, runs }
}

/** The estimate as console lines: one row, then where the numbers come from. */
export function renderEstimate(e: RunEstimate, resultsDir: string): string[] {
  const header = ['tasks', 'epochs', 'attempts', 'input tokens', 'output tokens', 'cost']
  const row = [e.tasks, e.epochs, e.attempts, count(e.input_tokens), count(e.output_tokens), e.cost_usd === null ? '—' : usd(e.cost_usd)].map(String)
  const widths = header.map((h, i) => Math.max(h.length, row[i]!.length))
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ')
  const seen = `${e.history.attempts} earlier ${e.history.attempts === 1 ? 'attempt' : 'attempts'} in ${e.history.runs} ${e.history.runs === 1 ? 'run' : 'runs'} under ${resultsDir}`
  const withHistory = e.history.tasks_with_history
  const history =
    e.tasks === 0
      ? 'no tasks selected: check the filters (vitest list --project benchmark <filters>)'
      : e.history.attempts === 0
      ? `history: no earlier attempts of agent ${e.agent}${e.model ? ` with model ${e.model}` : ''} under ${resultsDir}: tokens and cost unknown`
      : withHistory === e.tasks
        ? `history: all ${e.tasks} tasks run before (${seen})`
        : withHistory === 0
          ? `history: none of these tasks run before; each at the mean of the tasks that were (${seen})`
          : `history: ${withHistory} of ${e.tasks} tasks run before (${seen}); the others at their mean`
  return [
    `estimate for agent ${e.agent}${e.model ? ` · model ${e.model}` : ''}: agent tokens, every attempt run afresh (reused results cost nothing)`,
    line(header),
    line(row),
    history,
    // Without history the history line already says why nothing is estimated.
    ...(e.note && e.history.attempts > 0 ? [e.note] : []),
  ]
}

function count(value: number | null): string {
  return value === null ? '—' : value.toLocaleString('en-US')
}

function usd(value: number): string {
  return `$${value < 1 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`
}
