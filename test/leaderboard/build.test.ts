import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildLeaderboard, collectRunFolders, Leaderboard, type LeaderboardRow } from '../../src/leaderboard/index.ts'
import { clusteredWilson, wilson } from '../../src/stats/index.ts'
import { writeScenario } from './scenario.ts'

let dir: string
let board: Leaderboard
const warnings: string[] = []

const row = (agent: string): LeaderboardRow => {
  const found = board.rows.find((r) => r.agent === agent)
  if (!found) throw new Error(`no row for ${agent}`)
  return found
}

beforeAll(() => {
  dir = writeScenario()
  const { folders, skipped } = collectRunFolders(dir, (line) => warnings.push(line))
  board = buildLeaderboard(folders, skipped, new Date('2026-03-02T12:00:00.000Z'))
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('buildLeaderboard', () => {
  test('one row per agent × model × grader, best overall rate first, valid per the schema', () => {
    expect(Leaderboard.parse(board)).toEqual(board)
    expect(board.schema_version).toBe(1)
    expect(board.generated_at).toBe('2026-03-02T12:00:00.000Z')
    expect(board.rows.map((r) => [r.agent, r.model, r.grader])).toEqual([
      ['other-agent', 'model-b', 'none'],
      ['my-agent', 'model-a', 'judge-1'],
      ['nop', null, 'none'],
    ])
    expect(board.suites).toEqual(['editor', 'omnizon'])
    expect(board.tasks).toEqual(['editor-1', 'editor-2', 'omnizon-1', 'omnizon-2', 'omnizon-3', 'omnizon-4'])
  })

  test("two runs of one agent × model × grader are pooled: the grader from a1's votes and a2's config.yaml", () => {
    expect(row('my-agent').runs).toEqual([
      { run_id: 'a1', folder: 'a1' },
      { run_id: 'a2', folder: 'a2' },
    ])
  })

  test('pooled attempts are grouped by task: each task weighs the same; a reused result counts once', () => {
    const mine = row('my-agent')
    // omnizon-1 1/1·2, omnizon-2 ½, omnizon-3 0, omnizon-4 ½, editor-1 1 (a2's copy of a1's), editor-2 ½.
    expect(mine.overall).toEqual({ tasks: 6, attempts: 11, success_rate: 3.5 / 6, interval: clusteredWilson([[1], [0, 1], [1, 1], [1, 0], [0, 0], [0, 1]]), faulted: 0 })
    expect(mine.by_suite.omnizon).toEqual({ tasks: 4, attempts: 8, success_rate: 0.5, interval: clusteredWilson([[1, 1], [1, 0], [0, 0], [0, 1]]), faulted: 0 })
    expect(mine.by_suite.editor).toEqual({ tasks: 2, attempts: 3, success_rate: 0.75, interval: clusteredWilson([[1], [0, 1]]), faulted: 0 })
    const ci = mine.overall.interval!
    expect(ci.method).toBe('wilson-clustered')
    expect(ci.level).toBe(0.95)
    expect(ci.low).toBeLessThan(3.5 / 6)
    expect(ci.high).toBeGreaterThan(3.5 / 6)
  })

  test('one attempt per task: a Wilson interval; a suite a row never ran has no cell', () => {
    const other = row('other-agent')
    expect(other.overall).toEqual({ tasks: 3, attempts: 3, success_rate: 2 / 3, interval: wilson(2, 3), faulted: 0 })
    expect(other.by_suite).toEqual({ omnizon: other.overall })
    expect(row('nop').overall).toEqual({ tasks: 6, attempts: 6, success_rate: 0, interval: wilson(0, 6), faulted: 0 })
    expect(row('nop').by_suite.editor).toEqual({ tasks: 2, attempts: 2, success_rate: 0, interval: wilson(0, 2), faulted: 0 })
  })

  test('a row over fewer tasks says which it covers and which it misses', () => {
    expect(row('other-agent').coverage).toEqual({ tasks: 3, of: 6, suites: ['omnizon'], complete: false, missing: ['editor-1', 'editor-2', 'omnizon-4'] })
    expect(row('my-agent').coverage).toEqual({ tasks: 6, of: 6, suites: ['editor', 'omnizon'], complete: true, missing: [] })
    expect(row('nop').coverage.complete).toBe(true)
  })

  test('tokens, cost and median time per task', () => {
    // Cost: a1 6 × $0.002 agent + $0.0011 judge-1, a2 6 × $0.002, over the 12 attempts the runs made.
    expect(row('my-agent').per_task).toEqual({ agent_tokens: 1500, grader_tokens: 10, cost_usd: expect.closeTo(0.0251 / 12, 12), median_duration_ms: 10_000 })
    // No price table in b1's summary: no cost.
    expect(row('other-agent').per_task).toEqual({ agent_tokens: 8000 / 3, grader_tokens: 0, cost_usd: null, median_duration_ms: 7000 })
  })

  test('folders that are not runs, and a half-written record, are skipped with one warning line each', () => {
    expect(board.skipped).toEqual(['.cache', '.model-cache'])
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/^warning: skipped .*a1\/omnizon-9\.json: not valid JSON/)
    expect(warnings[1]).toBe('warning: skipped 2 folders with no task record: .cache, .model-cache')
  })

  test('no runs: no rows', () => {
    expect(buildLeaderboard([]).rows).toEqual([])
  })
})
