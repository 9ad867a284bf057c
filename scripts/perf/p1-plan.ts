/**
 * Turns a harness run folder of Omnizon tasks into the bare side's ReplayPlan: per task the
 * seed and pop-up setting it was configured with, its start page, each computer step's action
 * and the page it ended on, and the /finish diff it was graded on. Untimed preparation.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { parse } from 'yaml'
import { z } from 'zod'
import { buildSeed, SEED_NAMES } from '../../fixtures/apps/omnizon/seeds.ts'
import { readRunFolder } from '../../src/runs/folder.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'
import { OmnizonFinish, type OmnizonState } from '../../fixtures/apps/omnizon/state.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { ReplayAction, ReplayPlan, type ReplayTask } from './bare-browser.ts'

/** The part of the run's config.yaml (written by global setup) that the replay must match. */
const RunConfig = z.object({
  config: z.object({
    browser: z.object({
      viewport: z.object({ width: z.number().int(), height: z.number().int() }),
      executable_path: z.string().nullable(),
      headless: z.boolean(),
    }),
  }),
})

export function replayPlanOf(runDir: string): ReplayPlan {
  const { config } = RunConfig.parse(parse(readFileSync(join(runDir, 'config.yaml'), 'utf8')))
  const folder = readRunFolder(runDir, () => undefined)
  const tasks = folder.records.map(({ run }) => replayTaskOf(run, runDir))
  return ReplayPlan.parse({
    viewport: config.browser.viewport,
    executable_path: findBrowser(config.browser.executable_path, config.browser.headless).executablePath,
    headless: config.browser.headless,
    chromium_args: chromiumArgs(),
    tasks,
  })
}

function replayTaskOf(run: TestCaseRun, runDir: string): ReplayTask {
  if (!run.final_state) throw new Error(`${run.id}: the run recorded no /finish state`)
  const finish = OmnizonFinish.parse(JSON.parse(readFileSync(join(runDir, run.final_state), 'utf8')))
  const steps = run.trajectory.flatMap((step) => {
    if (step.action.type === 'message') return []
    if (!step.url) throw new Error(`${run.id} step ${step.index}: no URL recorded`)
    const action = step.action.type === 'goto' ? { ...step.action, url: pathOf(step.action.url) } : step.action
    return [{ action: ReplayAction.parse(action), path: pathOf(step.url) }]
  })
  return {
    id: run.id,
    ...seedOf(run.id, finish.initial),
    start_path: run.start_path ?? '/',
    steps,
    diff: finish.diff,
  }
}

/**
 * The /config parameters a session began from: the seed whose state equals the recorded initial
 * state (the pop-up switch aside), and whether the pop-up was switched off.
 */
function seedOf(id: string, initial: OmnizonState): { seed: string; remove_popup: boolean } {
  for (const seed of SEED_NAMES) {
    const state = buildSeed(seed)!
    state.popup.enabled = initial.popup.enabled
    if (isDeepStrictEqual(state, initial)) return { seed, remove_popup: !initial.popup.enabled }
  }
  throw new Error(`${id}: the recorded initial state is none of Omnizon's seeds (${SEED_NAMES.join(', ')})`)
}

/** A recorded URL without its origin: the bare side's Omnizon listens on another port. */
function pathOf(url: string): string {
  // Not pathname + search: an empty query ("/checkout?") has no search, but the page's URL keeps its "?".
  const parsed = new URL(url)
  return parsed.href.slice(parsed.origin.length)
}
