import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { readRun, ROOT } from './run-benchmark.ts'
import { TSX } from '../grader/run-script.ts'

const exec = promisify(execFile)
const CONFIG = ['--config', 'test/data/fixture-tasks.vitest.config.ts']

/** `npm run validate -- <args>` over the fixture tasks in test/data/validate-tasks. */
async function validate(args: string[]): Promise<{ code: number; stdout: string; stderr: string; out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'agentest-validate-test-'))
  const env = { ...process.env, FIXTURE_TASKS: 'test/data/validate-tasks/*.task.ts', NO_COLOR: '1' }
  try {
    const { stdout, stderr } = await exec(process.execPath, [...TSX, 'scripts/validate.ts', ...CONFIG, '--out', out, ...args], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, stdout, stderr, out }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, out }
  }
}

/** The records one agent's run wrote under the validation's --out folder. */
function records(out: string, agent: string) {
  const [runDir] = readdirSync(join(out, agent))
  return readRun(join(out, agent, runDir!)).results
}

/** For each step on record that acted, whether it has a screenshot of its own. */
const stepShots = (record: ReturnType<typeof records>[number]) => record.trajectory.filter((s) => s.action.type !== 'message').map((s) => s.screenshot !== null)

const row = (stdout: string, id: string) => stdout.split('\n').find((line) => line.startsWith(`${id} `)) ?? ''

describe('npm run validate: one command for a task\'s verdict', { timeout: 300_000 }, () => {
  test('a task whose near miss wrongly passes is unsound, so is one without a near miss, the sound one is sound, and the exit code says so', async () => {
    const run = await validate(['test/data/validate-tasks'])
    expect(run.code, run.stderr).toBe(1)
    expect(row(run.stdout, 'sound-buy')).toMatch(/^sound-buy +passed +failed +wrong item ✓ · placed then cancelled ✓ · duplicate ✓ +through the category ✓ +sound$/)
    expect(row(run.stdout, 'loose-check')).toMatch(/^loose-check +passed +failed +wrong item ✗ passed .* unsound$/)
    expect(run.stdout).toContain('✗ loose-check: near miss "wrong item" passed (it must fail)')
    // A task without a near miss is in the table as unsound, not left out (`vitest list`, which
    // lists the variants, leaves out its skipped placeholder).
    expect(row(run.stdout, 'no-near-miss')).toMatch(/^no-near-miss +passed +failed +- +- +unsound$/)
    expect(run.stdout).toContain('✗ no-near-miss: no near miss declared')
    expect(run.stdout).toContain('2 of 3 tasks unsound')
    // The four runs' records stay for reading why: every step, and the final screen, but no
    // screenshot after each step (without a grader no verdict reads one).
    expect(readdirSync(run.out).sort()).toEqual(['alternative', 'near-miss', 'nop', 'oracle'])
    const solved = records(run.out, 'oracle').concat(records(run.out, 'alternative'), records(run.out, 'near-miss'))
    expect(solved.length).toBeGreaterThanOrEqual(6)
    for (const record of solved) {
      expect(record.trajectory.length, record.id).toBeGreaterThan(0)
      expect(stepShots(record), record.id).not.toContain(true)
      expect(record.result?.screenshot, record.id).toBeTruthy()
    }
  })

  test('a sound task named by id exits 0; --step-screenshots keeps a screenshot after every step', async () => {
    const run = await validate(['sound-buy', '--step-screenshots'])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain('all 1 task sound')
    expect(row(run.stdout, 'loose-check')).toBe('')
    const [oracle] = records(run.out, 'oracle')
    expect(oracle?.id).toBe('sound-buy')
    expect(stepShots(oracle!).length).toBeGreaterThan(0)
    expect(stepShots(oracle!)).not.toContain(false)
  })

  test('an id no task has is one line', async () => {
    const run = await validate(['sound-bye'])
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'))).toEqual(['validate: no task has the id "sound-bye" (name task ids, task files or folders)'])
  })
})
