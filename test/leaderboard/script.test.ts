import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Leaderboard } from '../../src/leaderboard/index.ts'
import { runScript } from '../grader/run-script.ts'
import { writeScenario } from './scenario.ts'

let dir: string
let empty: string

beforeAll(() => {
  dir = writeScenario()
  empty = mkdtempSync(join(tmpdir(), 'agentest-leaderboard-empty-'))
})

afterAll(() => {
  for (const d of [dir, empty]) rmSync(d, { recursive: true, force: true })
})

describe('npm run leaderboard', () => {
  test('--json prints the Leaderboard; the page and the JSON are written; each skip is one warning line', async () => {
    const result = await runScript('leaderboard.ts', [dir, '--json'])
    expect(result.code).toBe(0)
    const board = Leaderboard.parse(JSON.parse(result.stdout))
    expect(board.rows.map((r) => r.agent)).toEqual(['other-agent', 'my-agent', 'nop'])
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^warning: skipped .*omnizon-9\.json: not valid JSON/),
      'warning: skipped 2 folders with no task record: .cache, .model-cache',
    ])
    expect(existsSync(join(dir, 'leaderboard.html'))).toBe(true)
    expect(existsSync(join(dir, 'leaderboard.json'))).toBe(true)
  })

  test("without a folder it reads the config's results folder, and prints both paths", async () => {
    const result = await runScript('leaderboard.ts', [], { AGENTEST_RESULTS_DIR: dir })
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n')).toEqual([join(dir, 'leaderboard.html'), join(dir, 'leaderboard.json')])
  })

  test('a missing folder, a folder without runs, and a bad option are one line and exit code 1', async () => {
    const missing = await runScript('leaderboard.ts', [join(dir, 'nope')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^leaderboard: no results folder .*nope\n$/)
    const none = await runScript('leaderboard.ts', [empty])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/^leaderboard: no runs in .*: no folder there holds a task record\n$/)
    expect(existsSync(join(empty, 'leaderboard.html'))).toBe(false)
    const bad = await runScript('leaderboard.ts', ['--nope'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^leaderboard: .*--nope.*\nusage: npm run leaderboard -- \[results folder\] \[--json\]\n$/)
  })
})
