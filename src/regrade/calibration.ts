import { existsSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { z } from 'zod'
import type { CheckSpec } from '../schema/task.ts'
import { readStoredRun, storedRunFiles, type StoredRun } from './stored-run.ts'

export const Label = z.enum(['pass', 'fail'])
export type Label = z.infer<typeof Label>

/** `labels.json` of a calibration set: stored TestCaseRuns (paths relative to it), each labelled. */
export const LabelledSet = z
  .object({
    items: z.array(z.object({ file: z.string().min(1), label: Label, agent: z.string().optional() }).strict()).min(1),
  })
  .strict()
export type LabelledSet = z.infer<typeof LabelledSet>

export interface LabelledRun {
  label: Label
  /** The agent that made the run (oracle, near-miss, nop...), when known. */
  agent: string | null
  stored: StoredRun
}

/**
 * A run without judged checks is judged on its goal, from its whole trajectory (WebJudge's
 * question: did the agent do what was asked?), so every task of a suite can calibrate.
 */
export const GOAL_CHECK: CheckSpec = {
  type: 'expected_flow',
  value: 'The agent does exactly what the task asks, all of it; where the task asks for information, the final answer gives it correctly.',
}

export function checksToCalibrate(stored: StoredRun): CheckSpec[] {
  return stored.run.checks.length ? stored.run.checks : [GOAL_CHECK]
}

export function readLabelledSet(file: string): LabelledRun[] {
  if (!existsSync(file)) throw new Error(`no labelled set at ${file}`)
  const parsed = LabelledSet.safeParse(JSON.parse(readFileSync(file, 'utf8')))
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`)
  return parsed.data.items.map((item) => ({ label: item.label, agent: item.agent ?? null, stored: readStoredRun(resolve(dirname(file), item.file)) }))
}

/**
 * Labels the stored runs of whole run folders. Runs the agent never finished (an error, a
 * timeout, a skipped sandbox) say nothing about the grader and are left out.
 */
export function labelFolders(folders: ReadonlyArray<{ dir: string; label: Label; agent?: string }>): LabelledRun[] {
  return folders.flatMap(({ dir, label, agent }) =>
    storedRunFiles(dir)
      .map((file) => ({ label, agent: agent ?? null, stored: readStoredRun(file) }))
      .filter((item) => item.stored.run.agent_status === 'done' || item.stored.run.agent_status === 'max_steps'),
  )
}

export function labelsFile(items: readonly LabelledRun[], setDir: string): LabelledSet {
  return { items: items.map((i) => ({ file: relative(setDir, i.stored.file), label: i.label, ...(i.agent ? { agent: i.agent } : {}) })) }
}

export interface ItemOutcome {
  file: string
  label: Label
  /** 1, 0, or -1 when the grader gave no verdict. */
  ai_score: number
  comment: string | null
  input_tokens: number
  output_tokens: number
}

export interface Agreement {
  items: number
  labelled: { pass: number; fail: number }
  /** Items the grader gave a verdict, by label. */
  scored: { pass: number; fail: number }
  unscored: number
  agree: number
  /** agree / scored items; null when none was scored. */
  accuracy: number | null
  /** Labelled fail but judged pass, over scored fail-labelled items. */
  false_pass_rate: number | null
  /** Labelled pass but judged fail, over scored pass-labelled items. */
  false_fail_rate: number | null
  false_passes: ItemOutcome[]
  false_fails: ItemOutcome[]
  tokens: { input: number; output: number }
}

export function agreement(outcomes: readonly ItemOutcome[]): Agreement {
  const scored = outcomes.filter((o) => o.ai_score >= 0)
  const scoredPass = scored.filter((o) => o.label === 'pass')
  const scoredFail = scored.filter((o) => o.label === 'fail')
  const falsePasses = scoredFail.filter((o) => o.ai_score === 1)
  const falseFails = scoredPass.filter((o) => o.ai_score === 0)
  const rate = (n: number, of: number) => (of ? n / of : null)
  return {
    items: outcomes.length,
    labelled: { pass: outcomes.filter((o) => o.label === 'pass').length, fail: outcomes.filter((o) => o.label === 'fail').length },
    scored: { pass: scoredPass.length, fail: scoredFail.length },
    unscored: outcomes.length - scored.length,
    agree: scored.length - falsePasses.length - falseFails.length,
    accuracy: rate(scored.length - falsePasses.length - falseFails.length, scored.length),
    false_pass_rate: rate(falsePasses.length, scoredFail.length),
    false_fail_rate: rate(falseFails.length, scoredPass.length),
    false_passes: falsePasses,
    false_fails: falseFails,
    tokens: { input: sum(outcomes, (o) => o.input_tokens), output: sum(outcomes, (o) => o.output_tokens) },
  }
}

export function renderAgreement(a: Agreement, models: readonly string[], root: string): string[] {
  const pct = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(1)}%`)
  return [
    `grader calibration · ${models.join(', ')} · ${a.items} labelled runs (${a.labelled.pass} pass, ${a.labelled.fail} fail)`,
    `  accuracy         ${pct(a.accuracy)}  (${a.agree} of ${a.scored.pass + a.scored.fail} scored runs agree)`,
    `  false pass rate  ${pct(a.false_pass_rate)}  (${a.false_passes.length} of ${a.scored.fail} labelled fail judged pass)`,
    `  false fail rate  ${pct(a.false_fail_rate)}  (${a.false_fails.length} of ${a.scored.pass} labelled pass judged fail)`,
    `  unscored         ${a.unscored}`,
    `  grader tokens    ${a.tokens.input} in / ${a.tokens.output} out`,
    ...disagreements('fail → pass', a.false_passes, root),
    ...disagreements('pass → fail', a.false_fails, root),
  ]
}

/** The first disagreements of a kind, one a line (a long list helps nobody). */
function disagreements(what: string, outcomes: readonly ItemOutcome[], root: string, max = 20): string[] {
  const lines = outcomes.slice(0, max).map((o) => `  ${what}  ${relative(root, o.file)}: ${(o.comment ?? '').split('\n')[0]}`)
  return outcomes.length > max ? [...lines, `  ${what}  ... and ${outcomes.length - max} more (--json lists them all)`] : lines
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0)
}
