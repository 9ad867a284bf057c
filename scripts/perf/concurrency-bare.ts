/**
 * The bare side: bare-cua.ts in a child process (plain Playwright + the openai SDK, N loops on
 * one Chromium) against the same slow scripted model, each task checked against its recording.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { z } from 'zod'
import { buildSeed, SEED_NAMES } from '../../fixtures/apps/omnizon/seeds.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'
import { BareOutput, type BareInput, type BareTask } from './bare-cua-protocol.ts'
import { runMeasuredChild, type ChildRun } from './concurrency-child.ts'
import type { SlowModel } from './concurrency-model.ts'
import { ROOT, type Finish, type OracleRecording } from './concurrency-oracle.ts'

const BARE_SCRIPT = join(ROOT, 'scripts/perf/bare-cua.ts')
const Popup = z.object({ popup: z.object({ enabled: z.boolean() }).loose() }).loose()

/** The seed and pop-up setting that give a recorded session's initial state (the harness took them from the task file). */
export function sessionSetup(initial: Finish['initial']): { seed: string; remove_popup: boolean } {
  const popup = Popup.parse(initial).popup.enabled
  for (const seed of SEED_NAMES) {
    const state = buildSeed(seed)
    if (!state) continue
    state.popup.enabled = popup
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(state)), initial)) return { seed, remove_popup: !popup }
  }
  throw new Error('no Omnizon seed gives the recorded initial state')
}

/** What the bare script needs of a recorded task, under the attempt's own key. */
export function bareTask(oracle: OracleRecording, key: string, base: string): BareTask {
  const run = oracle.byId.get(base)
  if (!run) throw new Error(`${base}: not in the oracle's recording`)
  const finish = oracle.finish(base)
  return {
    key,
    task_id: key,
    goal: run.task,
    start_path: run.start_path ?? '/',
    ...sessionSetup(finish.initial),
    expected_initial: finish.initial,
    expected_diff: finish.diff,
    expected_answer: run.final_answer,
  }
}

export interface BareOutcome {
  run: ChildRun
  output: BareOutput | null
  problems: string[]
}

/** Runs the bare script on these attempts (longest recorded first, as a sensible scheduler would). */
export async function runBare(options: { attempts: Map<string, string>; concurrency: number; model: SlowModel; oracle: OracleRecording }): Promise<BareOutcome> {
  const steps = (base: string) => options.oracle.byId.get(base)?.trajectory.length ?? 0
  const ordered = [...options.attempts].sort(([, a], [, b]) => steps(b) - steps(a))
  const input: BareInput = {
    tasks: ordered.map(([key, base]) => bareTask(options.oracle, key, base)),
    concurrency: options.concurrency,
    base_url: options.model.url,
    api_key: options.model.apiKey,
    model: 'computer-use-preview',
    executable_path: findBrowser(null).executablePath,
    args: chromiumArgs(),
    viewport: { width: 1280, height: 800 },
    run_id: 'bare',
    max_turns: 100,
  }
  const scratch = mkdtempSync(join(tmpdir(), 'agentest-perf-bare-'))
  try {
    const file = join(scratch, 'input.json')
    writeFileSync(file, JSON.stringify(input))
    const run = await runMeasuredChild({
      command: process.execPath,
      args: ['--import', 'tsx', BARE_SCRIPT, file],
      cwd: ROOT,
      env: { NO_COLOR: '1' },
      inFlight: options.model.inFlight,
    })
    const line = run.stdout.trim().split('\n').pop() ?? ''
    const parsed = BareOutput.safeParse(safeJson(line))
    if (!parsed.success) return { run, output: null, problems: [`the bare script printed no result (exit ${run.code}): ${run.stderr.slice(-500)}`] }
    const problems = [...options.model.faults.map((f) => `scripted model: ${f}`), ...parsed.data.results.flatMap((r) => r.problems)]
    const missing = [...options.attempts.keys()].filter((key) => !parsed.data.results.some((r) => r.key === key))
    problems.push(...missing.map((key) => `${key}: the bare script did not run it`))
    return { run, output: parsed.data, problems }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
