import { existsSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadRealTasks } from '../../fixtures/apps/omnizon/real/load.ts'
import { planCase } from '../../fixtures/apps/omnizon/real/plan.ts'
import { loadCases } from '../../src/osuniverse/load.ts'
import { ROOT, runScript } from '../grader/run-script.ts'
import { startScriptedGrader } from '../grader/scripted-grader.ts'

/**
 * `npm run fidelity -- <folder>`: every REAL file and OSUniverse case under a folder, as
 * agentest's loaders take it, and each runnable one under nop. Here on the repository's own
 * REAL-format and OSUniverse-format fixtures (test/data/fidelity links to them), and on the
 * upstream files themselves when this machine has them (AGENTEST_UPSTREAM, ../shared/upstream).
 */
const FIXTURES = 'test/data/fidelity'
const UPSTREAM = [process.env.AGENTEST_UPSTREAM, resolve(ROOT, '../shared/upstream'), '/work/shared/upstream'].find((dir) => dir && existsSync(dir))

const fileLine = (stdout: string, file: string) => stdout.split('\n').find((line) => line.startsWith(`  ${file}  `)) ?? ''

describe('npm run fidelity', { timeout: 300_000 }, () => {
  test('without running: a line per file (runs, or skipped with the loader\'s reason) and each suite\'s counts by reason', async () => {
    const run = await runScript('fidelity.ts', [FIXTURES, '--no-run'])
    expect(run.code, run.stderr).toBe(0)
    const real = loadRealTasks(join(ROOT, FIXTURES, 'real')).map(planCase)
    const cases = loadCases(join(ROOT, FIXTURES, 'osuniverse'))
    for (const plan of real) expect(fileLine(run.stdout, `real/${plan.realId}.json`)).toBe(`  real/${plan.realId}.json  ${plan.skip ? `skipped: ${plan.skip.replaceAll(` in ${plan.file}`, '')}` : 'runs'}`)
    for (const loaded of cases) expect(fileLine(run.stdout, `osuniverse/${loaded.key}.yaml`)).toBe(`  osuniverse/${loaded.key}.yaml  ${loaded.skip ? `skipped: ${loaded.skip}` : 'runs'}`)
    const runnable = real.filter((p) => !p.skip).length
    expect(run.stdout).toContain(`  ${real.length} files: ${real.length} loaded, ${runnable} runnable, ${real.length - runnable} skipped`)
    expect(run.stdout).toMatch(/^ {4}1 skipped: needs the open internet: its task names <url>/m)
  })

  test('running, with a grader model for the judged checks: each runnable REAL case fails under nop with every check run; a folder with nothing is one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-fidelity-test-'))
    symlinkSync(join(ROOT, 'fixtures/real-tasks'), join(dir, 'real'))
    // The scripted judge (a test double) fails what it has no rule for: nop's empty answers.
    const grader = await startScriptedGrader()
    const run = await runScript('fidelity.ts', [dir], grader.env).finally(() => grader.close())
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const plans = loadRealTasks(join(ROOT, 'fixtures/real-tasks')).map(planCase).filter((p) => !p.skip)
    for (const plan of plans) expect(fileLine(run.stdout, `real/${plan.realId}.json`)).toMatch(/ runs; nop: failed \((\d+)\/\1 checks run\)$/)
    expect(run.stdout).toContain(`  under nop: ${plans.length} failed with every check run, 0 with judged checks not run (no grader model), 0 otherwise`)
    const empty = await runScript('fidelity.ts', [mkdtempSync(join(tmpdir(), 'agentest-fidelity-empty-'))])
    expect(empty.code).toBe(2)
    expect(empty.stderr.trim()).toMatch(/^fidelity: .* holds no REAL task files \(\*\.json\) or OSUniverse cases \(<category>\/\*\.yaml\)$/)
  })

  test.skipIf(!UPSTREAM)('on the upstream files: every one loads, and each is said to run or why not', async () => {
    const run = await runScript('fidelity.ts', [UPSTREAM!, '--no-run'])
    expect(run.code, run.stderr).toBe(0)
    const files = run.stdout.split('\n').filter((line) => /^ {2}\S+\.(json|ya?ml) {2}/.test(line))
    expect(files.length).toBeGreaterThanOrEqual(180)
    for (const line of files) expect(line).toMatch(/ {2}(runs|skipped: .+)$/)
  })
})
