import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { catalog } from '../../fixtures/apps/omnizon/catalog.ts'
import { readRun, ROOT } from './run-benchmark.ts'
import { TSX } from '../grader/run-script.ts'

const exec = promisify(execFile)

/**
 * `npm run validate` on an app of a project's own, not Omnizon: Lakeside Lodge
 * (test/data/own-app/lodge, Node's http with a cookie session and the state contract), declared
 * under `environments:` in test/data/own-app/agentest.config.yaml, with its tasks in
 * test/data/own-app/tasks. The gate must judge them on the lodge's own world.
 */
async function validateOwnApp(): Promise<{ code: number; stdout: string; stderr: string; out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'agentest-validate-own-app-'))
  const env = { ...process.env, FIXTURE_TASKS: 'test/data/own-app/tasks/*.task.ts', AGENTEST_CONFIG: 'test/data/own-app/agentest.config.yaml', NO_COLOR: '1' }
  const args = [...TSX, 'scripts/validate.ts', '--config', 'test/data/fixture-tasks.vitest.config.ts', '--out', out, 'test/data/own-app/tasks']
  try {
    const { stdout, stderr } = await exec(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, stdout, stderr, out }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, out }
  }
}

const row = (stdout: string, id: string) => stdout.split('\n').find((line) => line.startsWith(`${id} `)) ?? ''
const problemsOf = (stdout: string, id: string) => stdout.split('\n').filter((line) => line.startsWith(`  ✗ ${id}: `))

describe('npm run validate on an app of your own', { timeout: 300_000 }, () => {
  test("sound tasks are sound, a loose answer check is caught by the app's own candidates, shop variants are n/a with the reason, a near miss cut short is a broken variant", async () => {
    const run = await validateOwnApp()
    const said = `${run.stdout}\n${run.stderr}`
    expect(run.code, said).toBe(1)

    // Sound: a question with candidates of its own, a question on an environment without any,
    // a state task, and a trap where the right move is not to act.
    expect(row(run.stdout, 'lodge-cheapest'), said).toMatch(/^lodge-cheapest +passed +failed +the dearest room ✓ · price missing ✓ · hedger ✓ · echo ✓ +- +sound$/)
    expect(row(run.stdout, 'lodge-birch-beds'), said).toMatch(/^lodge-birch-beds +passed +failed +the cedar room ✓ · hedger n\/a · echo ✓ +- +sound$/)
    expect(row(run.stdout, 'lodge-book'), said).toMatch(/^lodge-book +passed +failed +the pine room ✓ · one night ✓ · placed then cancelled n\/a · duplicate n\/a +- +sound$/)
    expect(row(run.stdout, 'lodge-cancel-trap'), said).toMatch(/^lodge-cancel-trap +passed +failed +cancelled another booking ✓ · said nothing ✓ · placed then cancelled n\/a · duplicate n\/a +- +sound$/)

    // Each n/a with its reason: no candidates anywhere; the lodge declares no orders.
    const notApplicable = run.stdout.split('\n').filter((line) => line.startsWith('  - '))
    expect(notApplicable).toEqual([
      "  - hedger on lodge-birch-beds: no candidates to hedge with: neither the task (candidates:) nor the lodge-plain app (environments.lodge-plain.candidates, or its kit's candidates) declares any",
      "  - placed then cancelled, duplicate on lodge-book, lodge-cancel-trap, lodge-short-budget: the lodge app declares no orders (its kit's orders: registerAppKit), so there is none to cancel or place twice",
    ])

    // The loose check: the hedger, listing the lodge's own rooms, passes it.
    expect(row(run.stdout, 'lodge-beds')).toMatch(/^lodge-beds +passed +failed +the cedar room ✓ · hedger ✗ passed · echo ✓ +- +unsound$/)
    expect(problemsOf(run.stdout, 'lodge-beds')).toEqual(['  ✗ lodge-beds: near miss "hedger" passed (it must fail)'])
    // The near miss that ran out of steps before its wrong booking: its budget, not the check.
    expect(problemsOf(run.stdout, 'lodge-short-budget')).toEqual([
      '  ✗ lodge-short-budget: near miss "and the maple room too" passed, but it was cut short by its 14-step budget before it finished: a broken variant, not a weak check (give it what it needs)',
    ])
    expect(run.stdout).toContain('2 of 6 tasks unsound')

    // What each hedger answered: the right answer, then its own world's candidates, and nothing of Omnizon's.
    const [runDir] = readdirSync(join(run.out, 'near-miss'))
    const hedgers = readRun(join(run.out, 'near-miss', runDir!)).results.filter((r) => r.variant === 'hedger' && r.final_answer !== null)
    const answer = (id: string) => hedgers.find((r) => r.id === id)?.final_answer ?? ''
    expect(hedgers.map((r) => r.id).sort()).toEqual(['lodge-beds', 'lodge-cheapest'])
    // lodge-beds: the lodge environment's list (environments.lodge.candidates).
    expect(answer('lodge-beds')).toMatch(/^The Maple room, with 4 beds\.\n\nIt could also be one of these:\n- Cedar room: 2 beds, \$120 a night\n- Maple room: 4 beds, \$180 a night\n- Birch room: 3 beds, \$140 a night\n- Pine room: 1 bed, \$95 a night\n/)
    // lodge-cheapest: the task's own, listed from the app's state, in place of the environment's.
    expect(answer('lodge-cheapest')).toContain('\n- The Cedar room, $120 a night\n- The Maple room, $180 a night\n- The Birch room, $140 a night\n- The Pine room, $95 a night\n')
    expect(answer('lodge-cheapest')).not.toContain('Cedar room: 2 beds')
    for (const hedger of hedgers) {
      const omnizon = catalog.filter((product) => hedger.final_answer!.includes(product.title))
      expect(omnizon.map((p) => p.title), hedger.id).toEqual([])
      expect(hedger.final_answer!.length, hedger.id).toBeLessThan(1_000)
    }
  })
})
