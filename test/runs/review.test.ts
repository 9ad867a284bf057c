import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { RunSummary } from '../../src/schema/summary.ts'
import { TestCaseRun } from '../../src/schema/run.ts'
import { runScript } from '../grader/run-script.ts'
import { record, writeRunFolder } from './fixtures.ts'

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'))

describe('npm run review', { timeout: 60_000 }, () => {
  let dir: string
  beforeAll(() => {
    dir = writeRunFolder([
      record({ id: 'omnizon-1' }),
      record({ id: 'omnizon-2', status: 'failed', ai_score: 0 }),
      record({ id: 'omnizon-3', variant: 'wrong item', status: 'failed' }),
    ])
  })

  test('sets human_score and human_comment, changes nothing else, and rewrites summary.json and report.html', async () => {
    const file = join(dir, 'omnizon-2.json')
    const before = readJson(file) as Record<string, unknown>
    const run = await runScript('review.ts', [dir, 'omnizon-2', '--score', '1', '--comment', 'right answer, strict check'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe(
      'omnizon-2: human_score -1 → 1 (status failed, ai_score 0) · disagrees with the automatic outcome\n' +
        `${dir}/summary.json and report.html rewritten: 2/3 passed (66.7%) · 1 human-reviewed · 1 disagreement\n`,
    )
    const after = readJson(file) as Record<string, unknown>
    expect(after).toEqual({ ...before, human_score: 1, human_comment: 'right answer, strict check' })
    expect(Object.keys(after)).toEqual(Object.keys(before))
    expect(TestCaseRun.parse(after).status).toBe('failed')

    const summary = RunSummary.parse(readJson(join(dir, 'summary.json')))
    expect(summary.totals).toMatchObject({ total: 3, passed: 2, failed: 1 })
    expect(summary.disagreements).toEqual([{ id: 'omnizon-2', ai_score: 0, human_score: 1, human_comment: 'right answer, strict check' }])
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('right answer, strict check')
  })

  test('--list prints each task with status, ai_score and human_score; a run id is found under the results folder', async () => {
    const run = await runScript('review.ts', [basename(dir), '--list'], { AGENTEST_RESULTS_DIR: dirname(dir) })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.split('\n')).toEqual([
      `run run-a · agent oracle · 3 tasks (${dir})`,
      '  task                   status  ai_score  human_score  human_comment',
      '  omnizon-1              passed  -1        -1',
      '  omnizon-2              failed  0         1            right answer, strict check',
      '  omnizon-3--wrong-item  failed  -1        -1',
      '',
    ])
  })

  test('a variant is named by its record key', async () => {
    const run = await runScript('review.ts', [dir, 'omnizon-3--wrong-item', '--score', '0'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^omnizon-3--wrong-item: human_score -1 → 0 \(status failed, ai_score -1\)\n/)
    expect(readJson(join(dir, 'omnizon-3--wrong-item.json'))).toMatchObject({ human_score: 0, human_comment: null })
  })

  test('an unknown task id, a bad score and a missing run folder are one line each', async () => {
    const unknown = await runScript('review.ts', [dir, 'omnizon-9', '--score', '1'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe(`review: no task omnizon-9 in ${dir} (known: omnizon-1, omnizon-2, omnizon-3--wrong-item)\n`)

    const bad = await runScript('review.ts', [dir, 'omnizon-1', '--score', 'yes'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe('review: --score: 0 (fail) or 1 (pass), not "yes"\n')

    const missing = await runScript('review.ts', ['no-such-run', '--list'], { AGENTEST_RESULTS_DIR: dirname(dir) })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe(`review: no run folder no-such-run (not a folder, nor a run id under ${dirname(dir)}/)\n`)
  })
})
