import { cpSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureImage, imageDir } from '../../src/docker/index.ts'
import { MAPPED_IMAGE_DIR } from '../../src/osuniverse/images.ts'
import { docker, noDocker } from '../docker/docker-available.ts'
import { ROOT, runBenchmark } from '../e2e/run-benchmark.ts'
import type { ScriptedGrader } from '../grader/scripted-grader.ts'
import { loadCases } from '../../src/osuniverse/load.ts'
import { LEVEL_MAX_STEPS } from '../../src/schema/task.ts'
import { startOsuniverseGrader } from './grader.ts'

const FIXTURES = join(ROOT, 'fixtures/osuniverse-cases')
const cases = loadCases(FIXTURES)
const runnable = cases.filter((c) => !c.skip)
const skipped = cases.filter((c) => c.skip)
/** The whole folder, two tasks at a time (most of a task is waiting on its apps). */
const RUN = ['tasks/osuniverse', '--maxWorkers=2']
/**
 * A case's near misses two at a time in each worker (run.concurrency), each in its own container:
 * most of one is its office app starting and being waited on.
 */
const VARIANTS_AT_ONCE = { AGENTEST_CONCURRENCY: '2' }

describe.skipIf(noDocker)('tasks/osuniverse: the OSUniverse YAML cases end to end, judged by the scripted grader', { timeout: 900_000 }, () => {
  let grader: ScriptedGrader
  beforeAll(async () => {
    // Built here, once (about 11 minutes on 2 cores the first time), so no run's time limit pays for it.
    await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})   // its FROM
    await ensureImage(docker, 'agentest-task/osuniverse-desktop', MAPPED_IMAGE_DIR, () => {})
    grader = await startOsuniverseGrader()
  }, 1_800_000)
  afterAll(() => grader?.close())

  test('under the oracle every runnable case passes on the OSUniverse desktop, and the one needing the internet is skipped with its reason', async () => {
    const run = await runBenchmark(RUN, { ...grader.env, AGENTEST_AGENT: 'oracle' })
    expect(run.code, run.stderr + run.stdout.slice(-4000)).toBe(0)
    const byId = Object.fromEntries(run.results.map((r) => [r.id, r]))
    expect(Object.keys(byId).sort()).toEqual(cases.map((c) => c.id).sort())
    for (const loaded of runnable) {
      const result = byId[loaded.id]!
      expect(result.status, `${loaded.id}: ${result.error?.message}`).toBe('passed')
      expect(result).toMatchObject({
        name: loaded.case.name,
        category: loaded.category,
        level: loaded.case.level,
        max_steps: LEVEL_MAX_STEPS[loaded.case.level],
        task: loaded.case.task,
        desktop_image: '../../fixtures/images/osuniverse-desktop',
        ai_score: 1,
      })
      // Every YAML check was judged, by its own kind, with the grader's vote on record.
      expect(result.checks.map((c) => c.type)).toEqual(loaded.case.checks.map((c) => c.type))
      expect(result.check_results.every((c) => c.passed && c.judge?.votes.length === 1)).toBe(true)
    }
    for (const loaded of skipped) {
      expect(byId[loaded.id], loaded.id).toMatchObject({ status: 'skipped', agent_status: 'not_run', error: { kind: 'skipped', message: loaded.skip } })
    }
    expect(run.summary?.weighted_score).toBe(100)
    expect(Object.keys(run.summary?.by_level ?? {}).sort()).toEqual(['bronze', 'paper', 'wood'])
  })

  test('under nop every runnable case fails: the judge decides from the evidence, not from its presence', async () => {
    const run = await runBenchmark(RUN, { ...grader.env, AGENTEST_AGENT: 'nop' })
    expect(run.code).toBe(1)
    for (const loaded of runnable) {
      const result = run.results.find((r) => r.id === loaded.id)
      expect(result?.status, loaded.id).toBe('failed')
      expect(result?.ai_score, loaded.id).toBe(0)
    }
    expect(run.results.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual(skipped.map((c) => c.id))
    expect(run.summary?.weighted_score).toBe(0)
  })

  test('every near miss fails its case', async () => {
    const run = await runBenchmark(RUN, { ...grader.env, ...VARIANTS_AT_ONCE, AGENTEST_AGENT: 'near-miss' })
    expect(run.code).toBe(1)
    const variants = run.results.filter((r) => r.variant !== null)
    expect(variants.length).toBeGreaterThanOrEqual(runnable.length)
    for (const result of variants) expect(result.status, `${result.id} [${result.variant}]: ${result.error?.message}`).toBe('failed')
    expect(new Set(variants.map((r) => r.id))).toEqual(new Set(runnable.map((c) => c.id)))
  })

  test("a user's own folder (AGENTEST_OSUNIVERSE_CASES) runs without solutions: cases at its top and in category folders", async () => {
    const mine = mkdtempSync(join(tmpdir(), 'agentest-osuniverse-mine-'))
    mkdirSync(join(mine, 'counting'))
    cpSync(join(FIXTURES, 'terminal/count_guests.yaml'), join(mine, 'counting/guests.yml'))
    cpSync(join(FIXTURES, 'browser/exchange_rate.yaml'), join(mine, 'rates.yaml'))
    const run = await runBenchmark(RUN, { ...grader.env, AGENTEST_AGENT: 'nop', AGENTEST_OSUNIVERSE_CASES: mine })
    const byId = Object.fromEntries(run.results.map((r) => [r.id, r]))
    expect(Object.keys(byId).sort()).toEqual(['osuniverse-counting-guests', 'osuniverse-rates'])
    expect(byId['osuniverse-counting-guests']).toMatchObject({ status: 'failed', category: 'counting', level: 'paper', max_steps: 5 })
    expect(byId['osuniverse-rates']).toMatchObject({ status: 'skipped', category: 'osuniverse', error: { kind: 'skipped' } })
  })
})
