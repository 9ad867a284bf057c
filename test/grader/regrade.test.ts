import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RunSummary } from '../../src/schema/summary.ts'
import { toCheckResult } from '../../src/grading/judge/check-result.ts'
import { unscored } from '../../src/grading/grader/vote.ts'
import { startScriptedGrader, type ScriptedGrader } from './scripted-grader.ts'
import { runScript } from './run-script.ts'
import { writeRun } from './stored-runs.ts'

const GRADING = ['ai_score', 'ai_comment', 'validation_input_tokens', 'validation_output_tokens']
const RUBRIC = { type: 'returned_result' as const, value: 'explains that the S24 Ultra is the better value: it costs less and has the better camera' }
const COMMAND = { type: 'command_output' as const, command: 'cat ~/note.txt', value: 'the note says 10:30' }

function read(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
}

/** The stored JSON minus its grading fields: what re-grading must leave alone. */
function rest(json: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([key]) => !GRADING.includes(key)))
}

describe('npm run regrade', { timeout: 120_000 }, () => {
  let grader: ScriptedGrader
  let dir: string
  beforeAll(async () => {
    grader = await startScriptedGrader({ rules: [{ expected: /S24 Ultra is the better value/, require: [/camera/] }, { expected: /10:30/, require: [/10:30/] }] })
    dir = mkdtempSync(join(tmpdir(), 'agentest-regrade-'))
    // As a run without a grader leaves them: the judged check recorded, unscored.
    const judged = toCheckResult('explains the choice', RUBRIC, unscored('needs a grader model'))
    await writeRun(dir, { id: 'omnizon-6', answer: 'The S24 Ultra costs less and has the better camera.', checks: [RUBRIC], check_results: [judged] })
    await writeRun(dir, { id: 'desk-1', answer: null, checks: [COMMAND], commands: [{ command: 'cat ~/note.txt', output: 'Meeting moved to 10:30\n' }] })
    await writeRun(dir, { id: 'omnizon-8', answer: null })
  })
  afterAll(() => grader.close())

  test('writes new ai_score, ai_comment and validation tokens, and changes nothing else', async () => {
    const before = Object.fromEntries(['omnizon-6', 'desk-1', 'omnizon-8'].map((id) => [id, readFileSync(join(dir, `${id}.json`), 'utf8')]))
    const run = await runScript('regrade.ts', [dir], grader.env)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('omnizon-6: ai_score -1 → 1')
    expect(run.stdout).toContain('desk-1: ai_score -1 → 1')
    expect(run.stdout).toContain('omnizon-8: no judged checks, unchanged')

    for (const id of ['omnizon-6', 'desk-1']) {
      const old = JSON.parse(before[id]!) as Record<string, unknown>
      const now = read(join(dir, `${id}.json`))
      expect(rest(now)).toEqual(rest(old))
      expect(Object.keys(now)).toEqual(Object.keys(old))
      expect(now.ai_score).toBe(1)
      expect(now.validation_input_tokens).toBeGreaterThan(0)
      expect(now.validation_output_tokens).toBeGreaterThan(0)
    }
    expect(read(join(dir, 'omnizon-6.json')).ai_comment).toBe('explains the choice [pass]: The evidence has everything the rule requires.')
    expect(read(join(dir, 'desk-1.json')).ai_comment).toBe('command `cat ~/note.txt`: the note says 10:30 [pass]: The evidence has everything the rule requires.')
    expect(readFileSync(join(dir, 'omnizon-8.json'), 'utf8')).toBe(before['omnizon-8'])

    // The new verdicts, every vote included, are kept beside the run.
    const sidecar = read(join(dir, 'omnizon-6', 'regrade.json')) as { models: string[]; check_results: Array<{ score: number; judge: { votes: unknown[] } }> }
    expect(sidecar.models).toEqual(['scripted-judge'])
    expect(sidecar.check_results[0]).toMatchObject({ score: 1, judge: { votes: [{ model: 'scripted-judge', score: 1 }] } })
    // The judge saw the recorded evidence: the answer, the final screenshot and the command's output.
    const bodies = JSON.stringify(grader.server.requests.map((r) => r.body))
    expect(bodies).toContain('The S24 Ultra costs less and has the better camera.')
    expect(bodies).toContain('Meeting moved to 10:30')
    expect(bodies).toContain('data:image/png;base64,')

    // The run's summary and report are rewritten from the re-graded records.
    expect(run.stdout).toContain(`${dir}/summary.json and report.html rewritten`)
    const summary = RunSummary.parse(read(join(dir, 'summary.json')))
    const graded = ['omnizon-6', 'desk-1'].map((id) => read(join(dir, `${id}.json`)))
    expect(summary.tokens.validation_input).toBe(graded.reduce((sum, json) => sum + Number(json.validation_input_tokens), 0))
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('explains the choice [pass]')
  })

  test('--task picks runs, and a grader fault leaves ai_score -1 with the reason', async () => {
    const broken = await startScriptedGrader({ rules: [], otherwise: 'error' })
    try {
      const run = await runScript('regrade.ts', [dir, '--task', 'omnizon-6'], { ...broken.env, AGENTEST_GRADER_MODEL: 'scripted-judge' })
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('regrading 1 run(s)')
      const now = read(join(dir, 'omnizon-6.json'))
      expect(now.ai_score).toBe(-1)
      expect(now.ai_comment).toMatch(/^explains the choice \[unscored\]: the grader failed: 500 scripted judge: no rule for this check/)
    } finally {
      await broken.close()
    }
  })

  test('without a grader, or without a run folder, it says so and exits 1', async () => {
    const none = await runScript('regrade.ts', [dir])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/^regrade: no grader is configured/)
    const missing = await runScript('regrade.ts', ['no-such-run'], grader.env)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^regrade: no run folder no-such-run/)
    expect(existsSync(join(dir, 'omnizon-8', 'regrade.json'))).toBe(false)
  })
})
