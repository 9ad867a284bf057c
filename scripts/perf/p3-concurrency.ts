/**
 * P3 and P4: the Omnizon tasks under openai-cua against a slow model (the scripted server
 * replaying the oracle, each reply held 1 s), 16 at once (`run.concurrency`, one Vitest worker
 * holding them all), through agentest and bare (plain Playwright + the openai SDK,
 * bare-cua.ts), alternating over the rounds.
 *
 * - P3a: the harness's wall time over the model-bound ideal (≤ 1.5x).
 * - P3b: the harness's wall time over the bare script's at the same concurrency (≤ 1.0x).
 * - P4: the harness's memory per concurrent task, the PSS sum of the vitest process tree
 *   (Chromium included) at its peak over the tasks in flight, against the bare script's (≤ 1.5x).
 *
 * Correct when every task passed under the harness, and both sides reached each task's recorded
 * end state (the oracle run's /finish diff).
 */
import { timing, type Compare, type CompareOptions, type Comparison } from './comparison.ts'
import { runBare, type BareOutcome } from './concurrency-bare.ts'
import { runHarness, type HarnessOutcome } from './concurrency-harness.ts'
import { modelBoundIdeal } from './concurrency-ideal.ts'
import { modelSeconds, startSlowModel } from './concurrency-model.ts'
import { oracleRecording, omnizonTaskIds, taskFile, type OracleRecording } from './concurrency-oracle.ts'
import { describeCpu, describeMemory, stepOverhead, vitestDuration } from './concurrency-report.ts'

export interface P3Options extends CompareOptions {
  /** Omnizon task ids (all 30 by default). */
  tasks?: string[]
  /** Tasks at once: the run's run.concurrency and the bare script's loops (16). */
  concurrency?: number
  /** The model's reply time, ms (1000). */
  delayMs?: number
}

interface Round {
  harness: HarnessOutcome
  ideal_s: number
  model_s: number[]
  bare: BareOutcome | null
}

export const compare: Compare<P3Options> = async (options) => {
  const ids = options.tasks ?? omnizonTaskIds()
  const concurrency = options.concurrency ?? 16
  const delayMs = options.delayMs ?? 1000
  const { log } = options
  const oracle = await oracleRecording(ids, log)
  const attempts = new Map(ids.map((id) => [id, id]))
  const rounds: Round[] = []
  for (let round = 1; round <= options.rounds; round++) {
    log(`P3 round ${round}/${options.rounds}: harness, ${ids.length} task(s) under openai-cua, ${concurrency} at once, model ${delayMs} ms…`)
    const { harness, ideal_s, model_s } = await harnessRound(oracle, ids, concurrency, delayMs)
    log(`P3 round ${round}: harness ${harness.run.wall_s.toFixed(1)} s (ideal ${ideal_s.toFixed(1)} s); bare…`)
    const model = await startSlowModel(oracle.runs, delayMs)
    let bare: BareOutcome
    try {
      bare = await runBare({ attempts, concurrency, model, oracle })
    } finally {
      await model.close()
    }
    log(`P3 round ${round}: bare ${bare.run.wall_s.toFixed(1)} s`)
    rounds.push({ harness, ideal_s, model_s, bare })
  }
  return rows(rounds, { count: ids.length, concurrency, delayMs })
}

async function harnessRound(oracle: OracleRecording, ids: string[], concurrency: number, delayMs: number) {
  const model = await startSlowModel(oracle.runs, delayMs)
  try {
    const harness = await runHarness({
      files: ids.map(taskFile),
      env: { AGENTEST_CONCURRENCY: String(concurrency) },
      model,
      oracle,
      expected: new Map(ids.map((id) => [id, id])),
      // On a shared 2-core machine a task can be slow without being wrong; the time is measured, not judged.
      taskTimeoutMs: 600_000,
    })
    const model_s = modelSeconds(model)
    return { harness, model_s, ideal_s: modelBoundIdeal(model_s, concurrency) }
  } finally {
    await model.close()
  }
}

function rows(rounds: Round[], setup: { count: number; concurrency: number; delayMs: number }): Comparison[] {
  const { count, concurrency, delayMs } = setup
  const what = `${count === 30 ? 'the 30 Omnizon tasks' : `${count} Omnizon task(s)`} under openai-cua, a model answering in ${delayMs / 1000} s, ${concurrency} at once`
  const harness = timing(rounds.map((r) => r.harness.run.wall_s))
  const ideal = timing(rounds.map((r) => r.ideal_s))
  const bare = timing(rounds.flatMap((r) => (r.bare ? [r.bare.run.wall_s] : [])))
  const problems = rounds.flatMap((r, i) => [
    ...r.harness.problems.map((p) => `harness round ${i + 1}: ${p}`),
    ...(r.bare?.problems ?? []).map((p) => `bare round ${i + 1}: ${p}`),
  ])
  const calls = rounds[0] ? rounds[0].model_s.reduce((sum, s) => sum + s, 0) / (delayMs / 1000) : 0
  const longest = rounds[0] ? Math.max(0, ...rounds[0].model_s) : 0
  const common = [
    `concurrency ${concurrency}: run.concurrency ${concurrency} and no --maxWorkers (one Vitest worker); bare: ${concurrency} async loops on one Chromium`,
    `model: the scripted server (a test double) replaying the oracle, ${delayMs} ms per reply; ${Math.round(calls)} model calls, the longest task ${longest.toFixed(0)} s of model time`,
    ...rounds.map((r, i) => `round ${i + 1}: ${describeCpu('harness', r.harness.run)}${r.bare ? `; ${describeCpu('bare', r.bare.run)}` : ''}`),
    ...rounds.map((r, i) => `round ${i + 1}: ${stepOverhead(r.harness, r.bare, delayMs)}`),
    ...rounds.flatMap((r, i) => {
      const line = vitestDuration(r.harness.run.stdout)
      return line ? [`round ${i + 1}: ${line}`] : []
    }),
  ]
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0)
  const inFlight = Math.min(concurrency, count)
  const memoryTiming = timing(rounds.map((r) => (r.harness.run.memory.peak_pss_mb ?? 0) / inFlight))
  const bareMemory = timing(rounds.flatMap((r) => (r.bare?.run.memory.peak_pss_mb ? [r.bare.run.memory.peak_pss_mb / inFlight] : [])))
  return [
    {
      id: 'P3a',
      work: `${what}: against the model-bound ideal`,
      unit: 's',
      harness,
      bare: ideal,
      bare_label: 'model-bound ideal (max of the longest task’s model time and total model time / concurrency)',
      ratio: ratio(harness.median_s, ideal.median_s),
      goal: '≤ 1.5x',
      met: problems.length === 0 && ratio(harness.median_s, ideal.median_s) <= 1.5,
      problems,
      notes: common,
    },
    {
      id: 'P3b',
      work: `${what}: against a bare Playwright + openai SDK script`,
      unit: 's',
      harness,
      bare,
      bare_label: 'bare Playwright + openai SDK, same concurrency',
      ratio: ratio(harness.median_s, bare.median_s),
      goal: '≤ 1.0x',
      met: problems.length === 0 && bare.rounds_s.length > 0 && ratio(harness.median_s, bare.median_s) <= 1.0,
      problems,
      notes: [...common, ...rounds.flatMap((r, i) => (r.bare?.output ? [`round ${i + 1}: bare setup ${r.bare.output.setup_s.toFixed(1)} s, loops ${r.bare.output.loop_s.toFixed(1)} s`] : []))],
    },
    {
      id: 'P4',
      work: `memory per concurrent browser task: ${what}`,
      unit: 'MB',
      harness: memoryTiming,
      bare: bareMemory,
      bare_label: 'bare Playwright + openai SDK, same concurrency (PSS per task)',
      ratio: ratio(memoryTiming.median_s, bareMemory.median_s),
      goal: '≤ 1.5x',
      met: problems.length === 0 && bareMemory.rounds_s.length > 0 && ratio(memoryTiming.median_s, bareMemory.median_s) <= 1.5,
      problems,
      notes: [
        'PSS (each shared page counted once) summed over every process descended from the vitest process (workers, Chromium, the clones), and over the bare script and its Chromium; each peak over the tasks at once',
        ...rounds.flatMap((r, i) => describeMemory(`round ${i + 1}`, r.harness.run.memory, r.bare?.run.memory ?? null, Math.min(concurrency, count))),
      ],
    },
  ]
}
