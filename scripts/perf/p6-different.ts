/**
 * P6: 64 different tasks in flight at once under openai-cua against a model that answers in 5 s
 * (the scripted server replaying the oracle): 64 task files, copies of Omnizon's 30 tasks with
 * ids of their own, run with `run.concurrency: 64` and no worker count named, so one Vitest worker
 * holds them all. Against the model-bound ideal (time) and against the bare Playwright + openai
 * script with 64 loops on one Chromium (time, and the peak PSS of the whole process tree).
 *
 * Correct when every copy passed under the harness and both sides reached each task's recorded
 * end state (the oracle run's /finish diff). The run is watched: when the machine runs short of
 * memory every process of its tree is killed and the rows say where it stopped.
 */
import { timing, type Compare, type CompareOptions, type Comparison } from './comparison.ts'
import { runBare, type BareOutcome } from './concurrency-bare.ts'
import { runHarness, type HarnessOutcome } from './concurrency-harness.ts'
import { modelBoundIdeal } from './concurrency-ideal.ts'
import { modelSeconds, startSlowModel } from './concurrency-model.ts'
import { oracleRecording, omnizonTaskIds } from './concurrency-oracle.ts'
import { describeCpu, describeMemory, stepOverhead, vitestDuration } from './concurrency-report.ts'
import { availableMb } from './proc.ts'
import { writeTaskCopies } from './task-copies.ts'

export interface P6Options extends CompareOptions {
  /** Omnizon task ids the files are copies of (all 30 by default). */
  tasks?: string[]
  /** Different task files in flight at once (64). */
  files?: number
  /** The model's reply time, ms (5000). */
  delayMs?: number
}

/** Memory the machine keeps for everyone else: below it the run is stopped. */
const MACHINE_RESERVE_MB = 2 * 1024

interface Round {
  harness: HarnessOutcome
  bare: BareOutcome
  ideal_s: number
}

export const compare: Compare<P6Options> = async (options) => {
  const ids = options.tasks ?? omnizonTaskIds()
  const count = options.files ?? 64
  const delayMs = options.delayMs ?? 5000
  const { log } = options
  const oracle = await oracleRecording(ids, log)
  const copies = writeTaskCopies(ids, count)
  const rounds: Round[] = []
  try {
    for (let round = 1; round <= options.rounds; round++) {
      log(`P6 round ${round}/${options.rounds}: harness, ${count} different task files in flight, model ${delayMs} ms…`)
      let model = await startSlowModel(oracle.runs, delayMs)
      let harness: HarnessOutcome
      let ideal_s: number
      try {
        harness = await runHarness({
          files: [],
          config: copies.config,
          env: { AGENTEST_CONCURRENCY: String(count) },
          model,
          oracle,
          expected: copies.bases,
          // The time is measured, not judged: a slow task on a shared machine is not a wrong one.
          taskTimeoutMs: 1_800_000,
          guard: shortOfMemory,
        })
        ideal_s = modelBoundIdeal(modelSeconds(model), count)
      } finally {
        await model.close()
      }
      log(`P6 round ${round}: harness ${harness.run.stopped ?? `${harness.run.wall_s.toFixed(1)} s, peak ${Math.round(harness.run.memory.peak_pss_mb ?? 0)} MB PSS`} (ideal ${ideal_s.toFixed(1)} s); bare…`)
      model = await startSlowModel(oracle.runs, delayMs)
      let bare: BareOutcome
      try {
        bare = await runBare({ attempts: copies.bases, concurrency: count, model, oracle })
      } finally {
        await model.close()
      }
      log(`P6 round ${round}: bare ${bare.run.wall_s.toFixed(1)} s, peak ${Math.round(bare.run.memory.peak_pss_mb ?? 0)} MB PSS`)
      rounds.push({ harness, bare, ideal_s })
      if (harness.run.stopped) break
    }
  } finally {
    copies.remove()
  }
  return rows(rounds, { count, delayMs, tasks: ids.length })
}

function shortOfMemory(sample: { rss_mb: number; pss_mb: number | null; in_flight: number | null; processes: number; at_ms: number }): string | null {
  const available = availableMb()
  if (available >= MACHINE_RESERVE_MB) return null
  return `stopped at ${sample.in_flight ?? '?'} tasks in flight: the machine had ${Math.round(available)} MB left (${Math.round(sample.pss_mb ?? 0)} MB PSS, ${sample.processes} processes, after ${(sample.at_ms / 1000).toFixed(0)} s)`
}

function rows(rounds: Round[], setup: { count: number; delayMs: number; tasks: number }): Comparison[] {
  const what = `${setup.count} different tasks in flight at once under openai-cua, a model answering in ${setup.delayMs / 1000} s`
  const stopped = rounds.flatMap((r, i) => (r.harness.run.stopped ? [`round ${i + 1}: ${r.harness.run.stopped}; the tasks did not finish, so this is no correctness result`] : []))
  const problems = rounds.flatMap((r, i) => [...r.harness.problems.map((p) => `harness round ${i + 1}: ${p}`), ...r.bare.problems.map((p) => `bare round ${i + 1}: ${p}`)])
  const ok = stopped.length === 0 && problems.length === 0
  const wall = timing(rounds.map((r) => r.harness.run.wall_s))
  const ideal = timing(rounds.map((r) => r.ideal_s))
  const bareWall = timing(rounds.map((r) => r.bare.run.wall_s))
  const peak = timing(rounds.map((r) => r.harness.run.memory.peak_pss_mb ?? 0))
  const barePeak = timing(rounds.map((r) => r.bare.run.memory.peak_pss_mb ?? 0))
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0)
  const notes = [
    `the files are ${setup.count} copies of ${setup.tasks} Omnizon tasks, each with its own id; run.concurrency ${setup.count} and no --maxWorkers: one Vitest worker runs them all at once; bare: ${setup.count} async loops on one Chromium`,
    ...stopped,
    ...rounds.map((r, i) => `round ${i + 1}: ${describeCpu('harness', r.harness.run)}; ${describeCpu('bare', r.bare.run)}`),
    ...rounds.map((r, i) => `round ${i + 1}: ${stepOverhead(r.harness, r.bare, setup.delayMs)}`),
    ...rounds.flatMap((r, i) => describeMemory(`round ${i + 1}`, r.harness.run.memory, r.bare.run.memory, setup.count)),
    ...rounds.flatMap((r, i) => {
      const line = vitestDuration(r.harness.run.stdout)
      return line ? [`round ${i + 1}: ${line}`] : []
    }),
  ]
  return [
    {
      id: 'P6a',
      work: `${what}: against the model-bound ideal`,
      unit: 's',
      harness: wall,
      bare: ideal,
      bare_label: 'model-bound ideal (max of the longest task’s model time and total model time / concurrency)',
      ratio: ratio(wall.median_s, ideal.median_s),
      goal: '≤ 1.5x',
      met: ok && ratio(wall.median_s, ideal.median_s) <= 1.5,
      problems,
      notes,
    },
    {
      id: 'P6b',
      work: `${what}: peak memory of the whole run (PSS sum) against the bare script's`,
      unit: 'MB',
      harness: peak,
      bare: barePeak,
      bare_label: 'bare Playwright + openai SDK, same concurrency (PSS sum)',
      ratio: ratio(peak.median_s, barePeak.median_s),
      goal: '≤ 1.5x',
      met: ok && ratio(peak.median_s, barePeak.median_s) <= 1.5,
      problems,
      notes,
    },
    {
      id: 'P6c',
      work: `${what}: against a bare Playwright + openai SDK script`,
      unit: 's',
      harness: wall,
      bare: bareWall,
      bare_label: 'bare Playwright + openai SDK, same concurrency',
      ratio: ratio(wall.median_s, bareWall.median_s),
      goal: '—',
      met: ok,
      problems,
      notes,
    },
  ]
}
