import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { TestCaseRun, type CheckResult } from '../../src/schema/run.ts'
import type { CheckSpec } from '../../src/schema/task.ts'

/** A solid PNG of the given size, like a screenshot. */
export function png(width = 1280, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 240, g: 240, b: 250 } } }).png().toBuffer()
}

export interface FakeRun {
  id: string
  answer: string | null
  steps?: number
  checks?: CheckSpec[]
  check_results?: CheckResult[]
  commands?: Array<{ command: string; output: string }>
  agent?: string
}

/** Writes a stored TestCaseRun (validated by the schema) with its screenshots; returns the JSON's path. */
export async function writeRun(runDir: string, fake: FakeRun): Promise<string> {
  mkdirSync(join(runDir, fake.id), { recursive: true })
  const shot = await png()
  const steps = Array.from({ length: fake.steps ?? 2 }, (_, i) => {
    const path = `${fake.id}/step-${String(i + 1).padStart(3, '0')}.png`
    writeFileSync(join(runDir, path), shot)
    return { index: i + 1, timestamp: 1_700_000_000_000 + i, action: { type: 'click' as const, x: 10 * i, y: 20, button: 'left' as const }, thought: '', screenshot: path, url: 'http://127.0.0.1/', error: null }
  })
  writeFileSync(join(runDir, fake.id, 'final.png'), shot)
  const run: TestCaseRun = TestCaseRun.parse({
    id: fake.id,
    name: `task ${fake.id}`,
    category: 'omnizon',
    level: null,
    task: `Do task ${fake.id}.`,
    setup_cmd: null,
    desktop_image: null,
    checks: fake.checks ?? [],
    app: 'omnizon',
    start_path: '/',
    difficulty: 'easy',
    challenge_type: 'retrieval',
    max_steps: 10,
    variant: null,
    schema_version: 1,
    run_id: 'fake-run',
    test_name: `${fake.id}: task`,
    file: `tasks/omnizon/${fake.id}.task.ts`,
    agent_yaml: `name: ${fake.agent ?? 'oracle'}\n`,
    agent_model: null,
    status: 'passed',
    agent_status: 'done',
    trajectory: steps,
    result: { index: steps.length + 1, timestamp: 1_700_000_000_100, action: { type: 'message', text: fake.answer ?? '' }, thought: '', screenshot: `${fake.id}/final.png`, url: null, error: null },
    final_answer: fake.answer,
    final_state: null,
    check_results: fake.check_results ?? [],
    command_output_check_results: (fake.commands ?? []).map((c) => ({ ...c, exit_code: 0 })),
    input_tokens: 0,
    output_tokens: 0,
    ai_score: -1,
    ai_comment: null,
    human_score: -1,
    human_comment: null,
    validation_input_tokens: 0,
    validation_output_tokens: 0,
    error: null,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:10.000Z',
    duration_ms: 10_000,
  })
  const file = join(runDir, `${fake.id}.json`)
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`)
  return file
}
