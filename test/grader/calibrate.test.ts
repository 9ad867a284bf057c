import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startScriptedGrader, type ScriptedGrader } from './scripted-grader.ts'
import { runScript } from './run-script.ts'
import { writeRun, type FakeRun } from './stored-runs.ts'

const RUBRIC = { type: 'returned_result' as const, value: 'lists each product with its price' }
const ORPHAN = { type: 'command_output' as const, command: 'cat ~/never-ran', value: 'anything' }

/**
 * A labelled set whose agreement with the scripted judge (pass when the answer has a price; a
 * run without checks is judged on its goal and passes when it has any evidence) is known:
 *   labelled pass (12): 8 priced answers, 2 unpriced (false fails), 2 without checks, with steps
 *   labelled fail (13): 8 unpriced, 3 priced (false passes), 1 without checks or evidence, and
 *                       1 whose command output was never recorded (unscored)
 */
const SET: Array<{ label: 'pass' | 'fail'; run: Omit<FakeRun, 'id'>; n: number }> = [
  { label: 'pass', n: 8, run: { answer: '- Sony: $399.99', checks: [RUBRIC] } },
  { label: 'pass', n: 2, run: { answer: '- Sony', checks: [RUBRIC] } },
  { label: 'pass', n: 2, run: { answer: 'done', steps: 3 } },
  { label: 'fail', n: 8, run: { answer: '- Sony', checks: [RUBRIC] } },
  { label: 'fail', n: 3, run: { answer: '- Sony: $1', checks: [RUBRIC] } },
  { label: 'fail', n: 1, run: { answer: null, steps: 0 } },
  { label: 'fail', n: 1, run: { answer: null, checks: [ORPHAN] } },
]

describe('npm run grader:calibrate', { timeout: 120_000 }, () => {
  let grader: ScriptedGrader
  let setDir: string
  beforeAll(async () => {
    grader = await startScriptedGrader({ rules: [{ expected: /with its price/, require: [/\$\d/] }], otherwise: 'evidence' })
    setDir = mkdtempSync(join(tmpdir(), 'agentest-calibration-'))
    const items: Array<{ file: string; label: string }> = []
    let n = 0
    for (const group of SET) {
      for (let i = 0; i < group.n; i++) {
        const runDir = join(setDir, group.label === 'pass' ? 'oracle' : 'nop')
        const file = await writeRun(runDir, { id: `task-${++n}`, ...group.run })
        items.push({ file: relative(setDir, file), label: group.label })
      }
    }
    writeFileSync(join(setDir, 'labels.json'), JSON.stringify({ items }))
  })
  afterAll(() => grader.close())

  test('prints accuracy, false pass rate and false fail rate over the labelled set', async () => {
    const run = await runScript('calibrate-grader.ts', ['--set', setDir], grader.env)
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines).toContain('grader calibration · scripted-judge · 25 labelled runs (12 pass, 13 fail)')
    expect(lines).toContain('  accuracy         79.2%  (19 of 24 scored runs agree)')
    expect(lines).toContain('  false pass rate  25.0%  (3 of 12 labelled fail judged pass)')
    expect(lines).toContain('  false fail rate  16.7%  (2 of 12 labelled pass judged fail)')
    expect(lines).toContain('  unscored         1')
    expect(lines.filter((l) => l.startsWith('  fail → pass'))).toHaveLength(3)
    expect(lines.filter((l) => l.startsWith('  pass → fail'))).toHaveLength(2)
    // One judge call per labelled run that has the evidence it needs.
    expect(grader.server.requests).toHaveLength(24)
  })

  test('--json gives the same numbers; --pass/--fail label whole run folders', async () => {
    const run = await runScript('calibrate-grader.ts', ['--pass', join(setDir, 'oracle'), '--fail', join(setDir, 'nop'), '--json'], grader.env)
    expect(run.code, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as Record<string, unknown>
    expect(result).toMatchObject({ models: ['scripted-judge'], items: 25, labelled: { pass: 12, fail: 13 }, unscored: 1, agree: 19 })
    expect(result.accuracy).toBeCloseTo(19 / 24)
    expect(result.false_pass_rate).toBeCloseTo(3 / 12)
    expect(result.false_fail_rate).toBeCloseTo(2 / 12)
  })

  test('a set smaller than 20 runs is refused', async () => {
    const run = await runScript('calibrate-grader.ts', ['--pass', join(setDir, 'oracle')], grader.env)
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('grader:calibrate: a calibration set needs at least 20 labelled runs; this one has 12\n')
  })
})
