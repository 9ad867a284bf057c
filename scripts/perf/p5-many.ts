/**
 * P5: 64 Omnizon attempts in flight at once under openai-cua against a model that answers in
 * 5 s (the scripted server replaying the oracle). Goals: the run fits in 10 GB (the PSS sum of
 * the vitest process tree, Chromium included: what the machine gives it, each shared page counted
 * once; the RSS sum, which counts every renderer's shared pages again, is in the notes) and
 * finishes within 1.5x its model-bound ideal.
 *
 * The attempts are epochs of a few task files (4), all at once through `run.concurrency`, each
 * in its own browser context; by default one Vitest worker holds them all (`--workers N` names
 * N workers, a file each, the form before files could share a worker; a worker process per
 * attempt was 11.6 GB at 64 before any task started).
 * The run is watched: past the memory cap (or when the machine runs short) every process of its
 * tree is killed, and the rows say where it stopped. It never runs the machine out of memory.
 */
import { timing, type Compare, type CompareOptions, type Comparison } from './comparison.ts'
import { runHarness, type HarnessOutcome } from './concurrency-harness.ts'
import { modelBoundIdeal, recordedModelSeconds } from './concurrency-ideal.ts'
import { modelSeconds, startSlowModel } from './concurrency-model.ts'
import { oracleRecording, omnizonTaskIds, taskFile } from './concurrency-oracle.ts'
import { describeCpu, describeMemory, vitestDuration } from './concurrency-report.ts'
import { availableMb } from './proc.ts'

export interface P5Options extends CompareOptions {
  /** Omnizon task ids whose epochs the attempts are (the first `files` of the suite by default). */
  tasks?: string[]
  /** Attempts in flight at once (64): `attempts / files` epochs of each task, all at once. */
  attempts?: number
  /** Task files whose epochs the attempts are (4, or `workers`). */
  files?: number
  /** Vitest workers, one task file each; none named: one worker holds every file (the default). */
  workers?: number
  /** The model's reply time, ms (5000). */
  delayMs?: number
  /** Stop the run when its tree's PSS sum passes this, MB (14336, or less when the machine has less free). */
  capMb?: number
}

export const P5_BOUND_MB = 10 * 1024
/** Memory the machine keeps for everyone else whatever the cap. */
const MACHINE_RESERVE_MB = 3 * 1024

interface Round {
  harness: HarnessOutcome
  ideal_s: number
  cap_mb: number
}

export const compare: Compare<P5Options> = async (options) => {
  const ids = (options.tasks ?? omnizonTaskIds()).slice(0, options.workers ?? options.files ?? 4)
  const epochs = Math.ceil((options.attempts ?? 64) / ids.length)
  const attempts = epochs * ids.length
  const delayMs = options.delayMs ?? 5000
  const { log } = options
  const oracle = await oracleRecording(ids, log)
  const rounds: Round[] = []
  for (let round = 1; round <= options.rounds; round++) {
    const cap_mb = Math.min(options.capMb ?? 14 * 1024, availableMb() - MACHINE_RESERVE_MB)
    if (cap_mb < 1024) throw new Error(`P5: only ${Math.round(availableMb())} MB available on this machine; not starting ${attempts} tasks`)
    log(`P5 round ${round}/${options.rounds}: ${attempts} attempts in flight, model ${delayMs} ms, memory cap ${Math.round(cap_mb)} MB…`)
    const model = await startSlowModel(oracle.runs, delayMs)
    // Every epoch of every task: omnizon-1, omnizon-1.e2, ... each repeating its task's recording.
    const expected = new Map(ids.flatMap((id) => Array.from({ length: epochs }, (_, i) => [i === 0 ? id : `${id}.e${i + 1}`, id] as const)))
    try {
      const harness = await runHarness({
        files: ids.map(taskFile),
        workers: options.workers,
        // One worker runs all the attempts at once; named workers each run their file's epochs at once.
        env: { AGENTEST_EPOCHS: String(epochs), AGENTEST_CONCURRENCY: String(options.workers ? epochs : attempts) },
        model,
        oracle,
        expected,
        // 64 workers start on 2 cores: the default 180 s per task would time out the longest ones.
        taskTimeoutMs: 1_800_000,
        guard: (sample) => {
          const available = availableMb()
          // PSS is read every few samples; the machine's free memory on every one keeps it safe between.
          const pss = sample.pss_mb ?? 0
          if (pss <= cap_mb && available >= MACHINE_RESERVE_MB / 3) return null
          const why = pss > cap_mb ? `past the cap of ${gb(cap_mb)}` : `the machine had ${Math.round(available)} MB left`
          return `stopped at ${sample.in_flight ?? '?'} tasks in flight: ${gb(pss)} PSS, ${gb(sample.rss_mb)} RSS (${why}), ${sample.processes} processes, after ${(sample.at_ms / 1000).toFixed(0)} s`
        },
      })
      // The ideal of a run that was stopped comes from the recording: it never made all its calls.
      const seconds = harness.run.stopped
        ? [...expected.values()].map((base) => recordedModelSeconds(oracle.byId.get(base)!, delayMs))
        : modelSeconds(model)
      rounds.push({ harness, ideal_s: modelBoundIdeal(seconds, attempts), cap_mb })
      log(`P5 round ${round}: ${harness.run.stopped ?? `${harness.run.wall_s.toFixed(1)} s, peak ${gb(harness.run.memory.peak_pss_mb ?? 0)} PSS`}`)
    } finally {
      await model.close()
    }
    // A run that had to be stopped would only be stopped again.
    if (rounds.at(-1)?.harness.run.stopped) break
  }
  return rows(rounds, { count: attempts, delayMs, tasks: ids.length, epochs, workers: options.workers })
}

const gb = (mb: number) => `${(mb / 1024).toFixed(1)} GB`

function rows(rounds: Round[], setup: { count: number; delayMs: number; tasks: number; epochs: number; workers?: number }): Comparison[] {
  const what = `${setup.count} Omnizon attempts in flight at once under openai-cua, a model answering in ${setup.delayMs / 1000} s`
  const stopped = rounds.flatMap((r, i) => (r.harness.run.stopped ? [`round ${i + 1}: ${r.harness.run.stopped}; the tasks did not finish, so this is no correctness result`] : []))
  const problems = rounds.flatMap((r, i) => r.harness.problems.map((p) => `round ${i + 1}: ${p}`))
  const wall = timing(rounds.map((r) => r.harness.run.wall_s))
  const ideal = timing(rounds.map((r) => r.ideal_s))
  const peak = timing(rounds.map((r) => r.harness.run.memory.peak_pss_mb ?? 0))
  const ok = stopped.length === 0 && problems.length === 0
  // A stopped run's time is to the stop: a lower bound, not the run's.
  const cut = stopped.length ? ' (stopped by the memory cap: the time is to the stop, a lower bound)' : ''
  const longest = Math.max(0, ...rounds.map((r) => r.ideal_s))
  const notes = [
    `the model-bound ideal ${longest.toFixed(0)} s: the larger of the longest attempt's model time and the total over ${setup.count}, at ${setup.delayMs / 1000} s a call`,
    setup.workers
      ? `the attempts are ${setup.epochs} epochs of each of ${setup.tasks} Omnizon tasks: --maxWorkers=${setup.workers} with run.concurrency ${setup.epochs}, so each worker holds its file's attempts at once`
      : `the attempts are ${setup.epochs} epochs of each of ${setup.tasks} Omnizon tasks: run.concurrency ${setup.count} and no --maxWorkers, so one worker holds them all at once`,
    ...stopped,
    ...rounds.map((r, i) => `round ${i + 1}: memory cap ${gb(r.cap_mb)}; ${describeCpu('harness', r.harness.run)}`),
    ...rounds.flatMap((r, i) => describeMemory(`round ${i + 1}`, r.harness.run.memory, null, setup.count)),
    ...rounds.flatMap((r, i) => {
      const line = vitestDuration(r.harness.run.stdout)
      return line ? [`round ${i + 1}: ${line}`] : []
    }),
  ]
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0)
  return [
    {
      id: 'P5a',
      work: `${what}: against the model-bound ideal${cut}`,
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
      id: 'P5b',
      work: `${what}: peak memory of the whole run (PSS sum)${cut}`,
      unit: 'MB',
      harness: peak,
      bare: timing(rounds.map(() => P5_BOUND_MB)),
      bare_label: `the goal's bound (${gb(P5_BOUND_MB)})`,
      ratio: peak.median_s / P5_BOUND_MB,
      goal: `≤ ${P5_BOUND_MB} MB (10 GB)`,
      met: ok && peak.median_s <= P5_BOUND_MB,
      problems,
      notes,
    },
  ]
}
