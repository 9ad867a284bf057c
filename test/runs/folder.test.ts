import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { InputError } from '../../src/errors/input-error.ts'
import { readRunFolder } from '../../src/runs/folder.ts'
import { rewriteSummary } from '../../src/report/rebuild.ts'
import { resolveRunFolder } from '../../src/runs/resolve.ts'
import { RunSummary } from '../../src/schema/summary.ts'
import { record, writeRunFolder } from './fixtures.ts'

describe('readRunFolder', () => {
  test('a corrupt or half-written JSON is skipped with one warning naming it', () => {
    const dir = writeRunFolder([record({ id: 'a' }), record({ id: 'b', status: 'failed' })])
    writeFileSync(join(dir, 'half.json'), '{"id": "half", "status": "pas')
    writeFileSync(join(dir, 'wrong.json'), JSON.stringify({ ...record({ id: 'wrong' }), status: 'won' }))
    const warnings: string[] = []
    const folder = readRunFolder(dir, (line) => warnings.push(line))
    expect(folder.records.map((r) => r.run.id)).toEqual(['a', 'b'])
    expect(folder.summary).toBeNull()
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(new RegExp(`^warning: skipped ${join(dir, 'half.json')}: not valid JSON \\(half-written\\?\\)`))
    expect(warnings[1]).toMatch(new RegExp(`^warning: skipped ${join(dir, 'wrong.json')}: not a TestCaseRun: status: `))
  })

  test('a corrupt summary.json is ignored with a warning; the records still load', () => {
    const dir = writeRunFolder([record({ id: 'a' })])
    writeFileSync(join(dir, 'summary.json'), '{')
    const warnings: string[] = []
    expect(readRunFolder(dir, (line) => warnings.push(line)).records).toHaveLength(1)
    expect(warnings).toEqual([`warning: ignored ${join(dir, 'summary.json')}: not valid JSON (half-written?)`])
  })
})

describe('resolveRunFolder', () => {
  test('takes a path or a run id under the results folder', () => {
    const dir = writeRunFolder([record({ id: 'a' })])
    expect(resolveRunFolder(dir, '/nowhere')).toBe(dir)
    expect(resolveRunFolder(basename(dir), dirname(dir))).toBe(dir)
  })

  test('a folder that does not exist is one clear line', () => {
    const results = mkdtempSync(join(tmpdir(), 'agentest-results-'))
    expect(() => resolveRunFolder('2026-01-01T00-00-00', results)).toThrow(InputError)
    expect(() => resolveRunFolder('2026-01-01T00-00-00', results)).toThrow(`no run folder 2026-01-01T00-00-00 (not a folder, nor a run id under ${results}/)`)
  })
})

describe('rewriteSummary', () => {
  test('rebuilds summary.json from the records, with run facts from the records when there was no summary', async () => {
    const dir = writeRunFolder([
      record({ id: 'a', run_id: 'r-7', started_at: '2026-01-01T00:00:05.000Z', finished_at: '2026-01-01T00:00:20.000Z' }),
      record({ id: 'b', run_id: 'r-7', status: 'failed', human_score: 1, started_at: '2026-01-01T00:00:01.000Z' }),
    ])
    const summary = await rewriteSummary(dir, {})
    const stored = RunSummary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
    expect(stored).toEqual(summary)
    expect(stored).toMatchObject({ run_id: 'r-7', agent: 'oracle', started_at: '2026-01-01T00:00:01.000Z', finished_at: '2026-01-01T00:00:20.000Z' })
    expect(stored.totals).toMatchObject({ passed: 2, success_rate: 1 })
    expect(stored).not.toHaveProperty('cost')
  })

  test("keeps a stored summary's facts and cost when there is no price table", async () => {
    const dir = writeRunFolder([record({ id: 'a' })])
    await rewriteSummary(dir, {})
    const first = RunSummary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...first, agent: 'my-agent', cost: { agent: 1.5, grader: null } }))
    const again = await rewriteSummary(dir, {})
    expect(again).toMatchObject({ agent: 'my-agent', cost: { agent: 1.5, grader: null } })
  })
})
