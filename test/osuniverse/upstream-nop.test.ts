import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureImage, imageDir } from '../../src/docker/index.ts'
import { MAPPED_IMAGE_DIR } from '../../src/osuniverse/images.ts'
import { loadCases } from '../../src/osuniverse/load.ts'
import { docker, noDocker } from '../docker/docker-available.ts'
import { ROOT, runBenchmark } from '../e2e/run-benchmark.ts'
import type { ScriptedGrader } from '../grader/scripted-grader.ts'
import { startOsuniverseGrader } from './grader.ts'

/**
 * Every OSUniverse case that runs here (44 of the 160 upstream ones, unchanged) under the nop
 * agent and the strict scripted grader (a TEST DOUBLE for an LLM judge, deciding from the
 * evidence): each ends failed with every check run, none at setup, and the evidence a grader is
 * shown holds nothing a right run would make: no answer, no step, and no file or version in any
 * command's output. About 3 minutes on 2 cores once the image is built.
 */
const UPSTREAM = join(resolve(process.env.AGENTEST_UPSTREAM ?? resolve(import.meta.dirname, '../../../shared/upstream')), 'osuniverse/testcases')
const absent = !existsSync(UPSTREAM)
if (absent) console.log(`test/osuniverse/upstream-nop.test.ts: skipped, no OSUniverse cases at ${UPSTREAM} (set AGENTEST_UPSTREAM)`)

/** What a command check shows when the agent made nothing: a failed conversion or lookup, or an empty folder. */
const NOTHING_MADE = (check: { exit_code: number | null; output: string }) => check.exit_code !== 0 || /^(total 0\n)?$/.test(check.output)

describe.skipIf(noDocker || absent)("nop passes none of OSUniverse's runnable upstream cases", { timeout: 1_800_000 }, () => {
  let grader: ScriptedGrader
  beforeAll(async () => {
    // Built once (about 11 minutes on 2 cores); other files needing it wait for the same build.
    await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
    await ensureImage(docker, 'agentest-task/osuniverse-desktop', MAPPED_IMAGE_DIR, () => {})
    grader = await startOsuniverseGrader()
  }, 1_800_000)
  afterAll(() => grader?.close())

  test('each of the 44 fails with every check run, on evidence that shows nothing done', async () => {
    const runnable = loadCases(UPSTREAM).filter((c) => !c.skip)
    expect(runnable).toHaveLength(44)
    const run = await runBenchmark(['tasks/osuniverse', '--maxWorkers=2'], { ...grader.env, AGENTEST_AGENT: 'nop', AGENTEST_OSUNIVERSE_CASES: UPSTREAM, AGENTEST_STEP_SCREENSHOTS: 'false' })
    const ran = run.results.filter((r) => r.status !== 'skipped')
    expect(ran.map((r) => r.id).sort(), run.stderr.slice(-3000)).toEqual(runnable.map((c) => c.id).sort())
    for (const r of ran) {
      expect(`${r.id}: ${r.status} ${r.error?.kind}`).toBe(`${r.id}: failed check_failed`)
      expect(r.check_results.filter((c) => c.score === -1).map((c) => c.check), r.id).toEqual([])
      expect([r.final_answer ?? null, r.trajectory.length], r.id).toEqual([null, 0])
      for (const check of r.command_output_check_results) expect(NOTHING_MADE(check), `${r.id}: ${check.command} → ${check.exit_code}: ${check.output.slice(0, 200)}`).toBe(true)
    }
    // The cases graded by a command are about half of them: the rest by the answer, the steps or the final screen.
    expect(ran.filter((r) => r.command_output_check_results.length > 0).length).toBe(24)
  })
})
