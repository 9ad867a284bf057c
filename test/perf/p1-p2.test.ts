import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { docker, noDocker } from '../docker/docker-available.ts'
import { replayBare, type ReplayPlan } from '../../scripts/perf/bare-browser.ts'
import { BARE_LABEL, bareDesktop } from '../../scripts/perf/bare-desktop.ts'
import { Comparison } from '../../scripts/perf/comparison.ts'
import { compare as p1 } from '../../scripts/perf/p1-replay.ts'
import { compare as p2 } from '../../scripts/perf/p2-desktop.ts'
import { ensureImage, imageDir } from '../../src/docker/index.ts'
import { ROOT } from '../../scripts/perf/vitest-run.ts'

const log = () => undefined

/** What every row must show when both sides did the same work right. */
function expectSound(row: Comparison): void {
  expect(Comparison.parse(row)).toEqual(row)
  expect(row.problems, row.id).toEqual([])
  expect(row.harness.rounds_s, row.id).toHaveLength(1)
  expect(row.bare.rounds_s, row.id).toHaveLength(1)
  expect(row.harness.median_s, row.id).toBeGreaterThan(0)
  expect(row.bare.median_s, row.id).toBeGreaterThan(0)
  expect(row.ratio, row.id).toBeCloseTo(row.harness.median_s / row.bare.median_s)
}

// The two run side by side: each mostly waits on its children (vitest, a browser, containers).
describe.concurrent('perf comparisons', () => {
  // A changed desktop image is built once here (minutes), not inside P2's own time limit.
  beforeAll(async () => {
    if (!noDocker) await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), log)
  }, 1_200_000)

  test('P1: the harness run and its bare replay reach the same end state; a broken replay does not', { timeout: 180_000 }, async () => {
    const plans: ReplayPlan[] = []
    // omnizon-28 starts from the past-orders seed: the replay must configure the same one.
    const rows = await p1({ rounds: 1, log, tasks: 'omnizon-(1|28)\\b', onPlan: (plan) => plans.push(plan) })
    expect(rows.map((r) => r.id)).toEqual(['P1'])
    expectSound(rows[0]!)
    expect(rows[0]!.goal).toBe('≤ 1.0x')
    expect(rows[0]!.met).toBe(rows[0]!.ratio <= 1)
    expect(plans).toHaveLength(1)
    const replayed = plans[0]!
    expect(replayed.tasks.map((t) => [t.id, t.seed])).toEqual([['omnizon-1', 'default'], ['omnizon-28', 'past-orders']])
    expect(replayed.tasks.every((t) => t.steps.length > 0 && t.diff.length > 0)).toBe(true)

    // Without each task's last action the end state differs, and the replay says so.
    const screenshotDir = mkdtempSync(join(tmpdir(), 'agentest-perf-test-'))
    try {
      const broken = await replayBare(replayed, { screenshotDir, dropLastAction: true })
      expect(broken.problems).toHaveLength(2)
      for (const problem of broken.problems) expect(problem).toMatch(/^omnizon-(1|28): \/finish diff differs from the harness's/)
    } finally {
      rmSync(screenshotDir, { recursive: true, force: true })
    }
  })

  test.skipIf(noDocker)('P2: an xterm desktop through DesktopSandbox, from a warm pool and bare, and a whole task under nop', { timeout: 180_000 }, async () => {
    const rows = await p2({ rounds: 1, log, apps: ['xterm'], whole: true })
    expect(rows.map((r) => r.id)).toEqual(['P2a', 'P2b', 'P2c', 'P2d'])
    for (const row of rows) expectSound(row)
    expect(rows.map((r) => r.goal)).toEqual(['≤ 1.3x', '≤ 1.3x', '≤ 0.3 s', '—'])
    // The pool row is a pooled container's own part, met by its time alone; the app's start is a note.
    const pooled = rows[2]!
    expect(pooled.met).toBe(pooled.harness.median_s <= 0.3)
    expect(pooled.notes.join(' ')).toMatch(/then the task's setup_cmd \(xterm started, its window settled\) took \d+\.\d\d s/)
    // Ready comes before the whole sequence ends, on both sides.
    expect(rows[0]!.harness.median_s).toBeLessThan(rows[1]!.harness.median_s)
    expect(rows[0]!.bare.median_s).toBeLessThan(rows[1]!.bare.median_s)

    // A window that never comes up is an error, and its container goes all the same.
    const image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), log)
    const never = bareDesktop({ docker, image, limits: { memoryMb: 512, cpus: 1, pids: 256 }, app: { prepare: null, command: 'xterm', title: '^never$' }, timeoutMs: 3_000 })
    await expect(never).rejects.toThrow(/did not come up/)
    const left = await docker.listContainers({ all: true, filters: { label: [`${BARE_LABEL.key}=${BARE_LABEL.value}`] } })
    expect(left.map((c) => c.Names[0])).toEqual([])
  })
})
