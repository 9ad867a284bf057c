import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import type { CheckResult, Step, TestCaseRun } from '../../src/schema/run.ts'
import { record as fixtureRecord } from '../runs/fixtures.ts'
import type { RunSummary } from '../../src/schema/summary.ts'

/** A small solid PNG, a stand-in screenshot. */
export function png(color: { r: number; g: number; b: number }, width = 64, height = 40): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer()
}

export interface FakeTask {
  id: string
  goal?: string
  status?: TestCaseRun['status']
  agent_status?: TestCaseRun['agent_status']
  answer?: string | null
  /** One step per action; each gets a screenshot unless it is a message. */
  actions?: Step['action'][]
  thoughts?: string[]
  check_results?: CheckResult[]
  commands?: TestCaseRun['command_output_check_results']
  error?: TestCaseRun['error']
  ai_score?: number
  ai_comment?: string | null
  human_score?: number
  human_comment?: string | null
}

const START = Date.parse('2026-03-01T10:00:00.000Z')

/** Writes a TestCaseRun JSON (valid per the schema) and its screenshots into a run folder; returns the record. */
export async function writeTask(runDir: string, task: FakeTask): Promise<TestCaseRun> {
  mkdirSync(join(runDir, task.id), { recursive: true })
  const actions = task.actions ?? [
    { type: 'click', x: 120, y: 48, button: 'left' },
    { type: 'type', text: 'laptop' },
  ]
  const trajectory: Step[] = []
  for (const [i, action] of actions.entries()) {
    const screenshot = action.type === 'message' ? null : `${task.id}/step-${String(i + 1).padStart(3, '0')}.png`
    if (screenshot) writeFileSync(join(runDir, screenshot), await png({ r: 40 * i, g: 120, b: 200 }))
    trajectory.push({ index: i + 1, timestamp: START + 1000 * (i + 1), action, thought: task.thoughts?.[i] ?? '', screenshot, url: 'http://127.0.0.1:4000/', error: null })
  }
  writeFileSync(join(runDir, task.id, 'final.png'), await png({ r: 250, g: 200, b: 40 }))
  const answer = task.answer === undefined ? 'done' : task.answer
  const record = fixtureRecord({
    id: task.id,
    name: `does ${task.id}`,
    task: task.goal ?? `Goal of ${task.id}.`,
    run_id: 'report-run',
    test_name: `${task.id}: does ${task.id}`,
    status: task.status ?? 'passed',
    agent_status: task.agent_status ?? 'done',
    trajectory,
    result: { index: actions.length + 1, timestamp: START + 1000 * (actions.length + 1), action: { type: 'message', text: answer ?? '' }, thought: '', screenshot: `${task.id}/final.png`, url: null, error: null },
    final_answer: answer,
    check_results: task.check_results ?? [],
    command_output_check_results: task.commands ?? [],
    input_tokens: 1200,
    output_tokens: 340,
    ai_score: task.ai_score ?? -1,
    ai_comment: task.ai_comment ?? null,
    human_score: task.human_score ?? -1,
    human_comment: task.human_comment ?? null,
    error: task.error ?? null,
    started_at: new Date(START).toISOString(),
    finished_at: new Date(START + 1000 * (actions.length + 2)).toISOString(),
    duration_ms: 1000 * (actions.length + 2),
  })
  writeFileSync(join(runDir, `${task.id}.json`), `${JSON.stringify(record, null, 2)}\n`)
  return record
}

export function check(name: string, passed: boolean, message: string | null = null, extra: Partial<CheckResult> = {}): CheckResult {
  return { check: name, passed, score: passed ? 1 : 0, message, input_tokens: 0, output_tokens: 0, ...extra }
}

/** A summary.json for the folder, as the summary reporter writes it (totals given, the rest plain). */
export function writeSummary(runDir: string, totals: Partial<RunSummary['totals']>, extra: Partial<RunSummary> = {}): void {
  const tally = { total: 0, passed: 0, failed: 0, error: 0, timeout: 0, skipped: 0, unscored: 0, cached: 0, success_rate: null, ...totals }
  const stats = { count: 2, mean_ms: 4000, median_ms: 4000, p90_ms: 5000 }
  const summary = {
    schema_version: 1,
    run_id: 'report-run',
    agent: 'oracle',
    agent_model: 'computer-use-preview',
    started_at: '2026-03-01T10:00:00.000Z',
    finished_at: '2026-03-01T10:01:05.000Z',
    totals: tally,
    by_suite: {},
    by_difficulty: {},
    by_level: {},
    weighted_score: null,
    duration: { all: stats, passed: stats },
    tokens: { input: 2400, output: 680, validation_input: 1500, validation_output: 90 },
    cost: { agent: 0.0123, grader: null },
    tasks: [],
    ...extra,
  }
  writeFileSync(join(runDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
}
