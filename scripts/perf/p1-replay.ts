/**
 * P1: the Omnizon oracle trajectories, one task at a time, through agentest (`vitest run
 * --project benchmark tasks/omnizon --maxWorkers=1` under the oracle) and replayed bare with
 * plain Playwright from what that run recorded (bare-browser.ts), alternating over the rounds.
 * Correct when every task passed under the harness and every bare replay reached the same
 * /finish diff with one screenshot per step.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { replayBare, type ReplayPlan } from './bare-browser.ts'
import { timing, type Compare, type CompareOptions, type Comparison } from './comparison.ts'
import { replayPlanOf } from './p1-plan.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { ROOT, timedVitestRun, type TimedRun } from './vitest-run.ts'

export interface P1Options extends CompareOptions {
  /** A vitest -t pattern picking a subset of tasks/omnizon (all 30 when unset). */
  tasks?: string
  /** Sees each round's replay plan (tests replay it again, broken on purpose). */
  onPlan?: (plan: ReplayPlan) => void
}

const SUITE = 'tasks/omnizon'

export const compare: Compare<P1Options> = async (options) => {
  const { log } = options
  const harness: number[] = []
  const bare: number[] = []
  const problems: string[] = []
  /** Where the time goes: inside the tasks and around them, per side. */
  const stats = { harnessTasks: [] as number[], harnessAround: [] as number[], bareTasks: [] as number[], bareAround: [] as number[] }
  let plan: ReplayPlan | null = null
  let steps = 0
  const setAside = new Set<string>()
  for (let round = 1; round <= options.rounds; round++) {
    log(`P1 round ${round}/${options.rounds}: harness (vitest, oracle)…`)
    const run = await timedVitestRun([SUITE, '--maxWorkers=1', ...(options.tasks ? ['-t', options.tasks] : [])], { AGENTEST_AGENT: 'oracle', AGENTEST_CACHE: 'refresh' }, `perf-p1-r${round}`)
    try {
      harness.push(run.seconds)
      problems.push(...harnessProblems(run, options.tasks).map((p) => `harness round ${round}: ${p}`))
      for (const id of unscored(run)) setAside.add(id)
      const count = run.folder?.records.length ?? 0
      // Vitest's "tests" time holds each task's fixtures (its sandbox) too; duration_ms does not.
      if (run.testsSeconds !== null && count > 0) {
        stats.harnessTasks.push(run.testsSeconds / count)
        stats.harnessAround.push(run.seconds - run.testsSeconds)
      }
      try {
        // Each bare round replays what the harness round before it recorded.
        if (run.folder) plan = replayPlanOf(run.runDir)
        if (plan) options.onPlan?.(plan)
      } catch (error) {
        problems.push(`harness round ${round}: its run cannot be replayed: ${error instanceof Error ? error.message : String(error)}`)
      }
    } finally {
      rmSync(run.resultsDir, { recursive: true, force: true })
    }
    if (!plan) continue
    steps = sum(plan.tasks.map((t) => t.steps.length))
    log(`P1 round ${round}/${options.rounds}: bare Playwright replay of ${plan.tasks.length} task(s)…`)
    const screenshotDir = mkdtempSync(join(tmpdir(), 'agentest-perf-bare-'))
    try {
      const result = await replayBare(plan, { screenshotDir })
      bare.push(result.seconds)
      problems.push(...result.problems.map((p) => `bare round ${round}: ${p}`))
      if (result.problems.length === 0 && result.screenshots !== steps) problems.push(`bare round ${round}: ${result.screenshots} screenshots for ${steps} steps`)
      stats.bareTasks.push(...Object.values(result.tasks))
      stats.bareAround.push(result.seconds - sum(Object.values(result.tasks)))
    } finally {
      rmSync(screenshotDir, { recursive: true, force: true })
    }
  }
  const count = plan?.tasks.length ?? 0
  const h = timing(harness)
  const b = timing(bare)
  const ratio = b.median_s > 0 ? h.median_s / b.median_s : 0
  const mean = (values: number[]) => (values.length ? sum(values) / values.length : 0)
  const s = (value: number) => `${value.toFixed(2)} s`
  return [
    {
      id: 'P1',
      work: `${count === 30 ? 'the 30' : count} Omnizon oracle trajectories, one at a time`,
      unit: 's',
      harness: h,
      bare: b,
      bare_label: 'bare Playwright replay',
      ratio,
      goal: '≤ 1.0x',
      met: ratio > 0 && ratio <= 1.0,
      problems,
      notes: [
        `${count} task(s), ${steps} computer steps a round; harness: vitest --maxWorkers=1 under the oracle; bare: one browser and one Omnizon, each task in a fresh context, one page.screenshot per step, its /finish diff compared`,
        `in the tasks: harness ${s(mean(stats.harnessTasks))} a task (vitest's "tests" time: context, agent, checks, record with a final screenshot) vs bare ${s(mean(stats.bareTasks))} (context, /config, replay, /finish)`,
        `around them: harness ${s(mean(stats.harnessAround))} a run (vitest start-up, collecting every task file, global setup, reporters, teardown) vs bare ${s(mean(stats.bareAround))} (browser launch, Omnizon start, close)`,
        ...(setAside.size ? [`unscored, not failed: ${[...setAside].join(', ')} (a judged check with no grader configured; set AGENTEST_GRADER_* to score it); every code check passed and the end state is compared`] : []),
        ...(options.tasks ? [`tasks: -t '${options.tasks}'`] : []),
      ],
    },
  ]
}

/** What is wrong with one harness run: no summary, a task that did not pass, tasks missing. */
function harnessProblems(run: TimedRun, filter: string | undefined): string[] {
  if (!run.folder?.summary) return [`the run wrote no summary (vitest exit ${run.code}): ${run.tail}`]
  const records = run.folder.records.map((r) => r.run)
  const problems = records.filter((r) => !passed(r)).map((r) => `${r.id} ${r.status}${r.error ? `: ${r.error.message.split('\n')[0]}` : ''}`)
  if (records.length === 0) problems.push('no task ran')
  const expected = readdirSync(join(ROOT, SUITE)).filter((f) => f.endsWith('.task.ts')).length
  if (!filter && records.length !== expected) problems.push(`${records.length} task records for ${expected} task files`)
  return problems
}

/**
 * Passed, or set aside only because its judged check had no grader (omnizon-6 without
 * AGENTEST_GRADER_*): the agent finished, no check failed, and its end state is still compared.
 */
function passed(run: TestCaseRun): boolean {
  if (run.status === 'passed') return true
  return run.status === 'skipped' && run.error?.kind === 'unscored' && run.agent_status === 'done' && run.check_results.every((c) => c.passed || c.score === -1)
}

function unscored(run: TimedRun): string[] {
  return (run.folder?.records ?? []).filter((r) => r.run.status === 'skipped').map((r) => r.run.id)
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0)
}
