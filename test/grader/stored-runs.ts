import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import type { CheckResult, TestCaseRun } from '../../src/schema/run.ts'
import { record } from '../runs/fixtures.ts'
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
  const run: TestCaseRun = record({
    id: fake.id,
    checks: fake.checks ?? [],
    run_id: 'fake-run',
    agent_yaml: `name: ${fake.agent ?? 'oracle'}\n`,
    trajectory: steps,
    result: { index: steps.length + 1, timestamp: 1_700_000_000_100, action: { type: 'message', text: fake.answer ?? '' }, thought: '', screenshot: `${fake.id}/final.png`, url: null, error: null },
    final_answer: fake.answer,
    check_results: fake.check_results ?? [],
    command_output_check_results: (fake.commands ?? []).map((c) => ({ ...c, exit_code: 0 })),
  })
  const file = join(runDir, `${fake.id}.json`)
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`)
  return file
}
