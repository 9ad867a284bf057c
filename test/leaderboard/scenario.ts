import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RecordInput } from '../runs/fixtures.ts'
import { judged, writeRun } from './runs.ts'

export const PRICES = { 'model-a': { input: 1, output: 2 }, 'judge-1': { input: 10, output: 10 } }

const editor = (id: string, input: Partial<RecordInput> = {}): RecordInput => ({ id, category: 'editor', app: null, ...input })

/**
 * A results folder of four runs and two folders that are not runs:
 * - my-agent × model-a × judge-1, two runs pooled: a1's omnizon-1 has judge-1's vote, a2 has no
 *   judged check and names judge-1 in its config.yaml; a2's editor-1 is a1's result reused.
 * - other-agent × model-b, no grader: one run over omnizon-1..3 only (3 of the 6 tasks), no prices.
 * - nop, no model, no grader (config.yaml says null): every task failed.
 * - a1 also holds a half-written record; `.model-cache` holds a JSON that is no record; `.cache` is empty.
 */
export function writeScenario(resultsDir = mkdtempSync(join(tmpdir(), 'agentest-leaderboard-'))): string {
  writeRun(resultsDir, {
    name: 'a1',
    agent: 'my-agent',
    model: 'model-a',
    prices: PRICES,
    records: [
      { id: 'omnizon-1', ...judged('judge-1', true) },
      { id: 'omnizon-2' },
      { id: 'omnizon-3', status: 'failed' },
      { id: 'omnizon-4', status: 'failed' },
      editor('editor-1'),
      editor('editor-2', { status: 'failed' }),
    ],
  })
  writeFileSync(join(resultsDir, 'a1', 'omnizon-9.json'), '{"id": "omnizon-9", "status": ')
  const later = { started_at: '2026-01-02T00:00:00.000Z', finished_at: '2026-01-02T00:00:30.000Z', duration_ms: 30_000 }
  writeRun(resultsDir, {
    name: 'a2',
    agent: 'my-agent',
    model: 'model-a',
    configGrader: 'judge-1',
    prices: PRICES,
    records: [
      { id: 'omnizon-1', ...later },
      { id: 'omnizon-2', status: 'failed', ...later },
      { id: 'omnizon-3', status: 'timeout', ...later },
      { id: 'omnizon-4', ...later },
      editor('editor-1', { ...later, duration_ms: 10_000, cached: true, cached_from: 'a1' }),
      editor('editor-2', later),
    ],
  })
  writeRun(resultsDir, {
    name: 'b1',
    agent: 'other-agent',
    model: 'model-b',
    records: [
      { id: 'omnizon-1', duration_ms: 5000 },
      { id: 'omnizon-2', duration_ms: 7000 },
      { id: 'omnizon-3', status: 'failed', duration_ms: 9000, input_tokens: 4000, output_tokens: 1000 },
    ],
  })
  writeRun(resultsDir, {
    name: 'n1',
    agent: 'nop',
    model: null,
    configGrader: null,
    records: ['omnizon-1', 'omnizon-2', 'omnizon-3', 'omnizon-4'].map((id): RecordInput => ({ id, status: 'failed', input_tokens: 0, output_tokens: 0 })).concat([
      editor('editor-1', { status: 'failed', input_tokens: 0, output_tokens: 0 }),
      editor('editor-2', { status: 'failed', input_tokens: 0, output_tokens: 0 }),
    ]),
  })
  mkdirSync(join(resultsDir, '.model-cache'), { recursive: true })
  writeFileSync(join(resultsDir, '.model-cache', '3f2a.json'), '{"choices": []}\n')
  mkdirSync(join(resultsDir, '.cache'), { recursive: true })
  return resultsDir
}
