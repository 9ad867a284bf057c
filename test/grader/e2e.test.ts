import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runBenchmark, type BenchmarkRun } from '../e2e/run-benchmark.ts'
import { startScriptedGrader, type ScriptedGrader } from './scripted-grader.ts'
import { runScript } from './run-script.ts'

const TASK = ['tasks/omnizon/omnizon-6.task.ts']
const RUBRIC =
  'explains the choice of the Galaxy S24 Ultra over the Z Fold6 with true facts from the listings: it costs less ($1,119.99 against $1,899.99) and has as good or better features for its price (200 MP vs 50 MP camera, 5000 vs 4400 mAh battery, 5x vs 3x optical zoom, built-in S Pen, higher rating 4.6 vs 4.3); it states no wrong price or spec'

/** A task with a rubric (omnizon-6) run for real, without a grader and with the scripted one. */
describe('judged checks end to end', { timeout: 300_000 }, () => {
  let grader: ScriptedGrader
  let graded: BenchmarkRun | null = null
  beforeAll(async () => {
    grader = await startScriptedGrader()
  })
  afterAll(() => grader.close())

  test('without a grader the task is skipped with "needs a grader model", never passed', async () => {
    const run = await runBenchmark(TASK, { AGENTEST_AGENT: 'oracle' }, undefined, { grader: false })
    expect(run.code, run.stderr + run.stdout.slice(-2000)).toBe(0)
    const [result] = run.results
    expect(result).toMatchObject({
      id: 'omnizon-6',
      status: 'skipped',
      agent_status: 'done',
      error: { kind: 'unscored', message: 'needs a grader model' },
      ai_score: -1,
      validation_input_tokens: 0,
      checks: [{ type: 'returned_result', value: RUBRIC }],
    })
    // The deterministic checks still ran and passed; the judged one is recorded as unscored.
    expect(result!.check_results.filter((c) => !c.judge).every((c) => c.passed)).toBe(true)
    expect(result!.check_results.at(-1)).toMatchObject({ check: 'explains the choice', passed: false, score: -1, message: 'unscored: needs a grader model' })
    expect(run.summary?.totals).toMatchObject({ total: 1, passed: 0, failed: 0, skipped: 0, unscored: 1, success_rate: null })
    expect(run.stdout).toMatch(/unscored/)
  })

  test('with AGENTEST_GRADER_BASE_URL on the scripted judge, the JSON has ai_score, ai_comment and validation tokens', async () => {
    graded = await runBenchmark(TASK, { AGENTEST_AGENT: 'oracle', ...grader.env })
    const run = graded
    expect(run.code, run.stderr + run.stdout.slice(-2000)).toBe(0)
    const [result] = run.results
    expect(result).toMatchObject({ id: 'omnizon-6', status: 'passed', ai_score: 1, ai_comment: 'explains the choice [pass]: Every fact the rubric needs is in the evidence.', error: null })
    const judged = result!.check_results.at(-1)!
    expect(judged).toMatchObject({ check: 'explains the choice', passed: true, score: 1, judge: { type: 'returned_result', value: RUBRIC, votes: [{ model: 'scripted-judge', score: 1 }] } })
    expect(result!.validation_input_tokens).toBe(judged.input_tokens)
    expect(result!.validation_output_tokens).toBe(judged.output_tokens)
    expect(result!.validation_input_tokens).toBeGreaterThan(765) // the prompt's text plus one image
    expect(run.summary?.tokens).toMatchObject({ validation_input: result!.validation_input_tokens, validation_output: result!.validation_output_tokens })
    expect(run.stdout).toContain(`grader ${result!.validation_input_tokens} in / ${result!.validation_output_tokens} out`)

    // One call, with the final answer and the final screenshot (the record's final.png), scaled to 768 px.
    expect(grader.server.requests).toHaveLength(1)
    const body = JSON.stringify(grader.server.requests[0]!.body)
    expect(body).toContain(result!.final_answer!)
    const image = /data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(body)![1]!
    const sent = await sharp(Buffer.from(image, 'base64')).metadata()
    const kept = await sharp(readFileSync(join(run.runDir!, result!.result!.screenshot!))).metadata()
    expect([sent.width, sent.height]).toEqual([768, 480])
    expect([kept.width, kept.height]).toEqual([1280, 800])
  })

  test('re-grading that run with a stricter judge changes only the grading fields', async () => {
    expect(graded, 'needs the graded run').not.toBeNull()
    const file = join(graded!.runDir!, 'omnizon-6.json')
    const before = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    const strict = await startScriptedGrader({ rules: [{ expected: /choice of the Galaxy S24 Ultra/, require: [/S Pen/, /warranty/i] }] })
    try {
      const run = await runScript('regrade.ts', [graded!.runDir!], strict.env)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('omnizon-6: ai_score 1 → 0')
    } finally {
      await strict.close()
    }
    const after = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    const changed = Object.keys(after).filter((key) => JSON.stringify(after[key]) !== JSON.stringify(before[key]))
    expect(changed).toEqual(expect.arrayContaining(['ai_score', 'ai_comment']))
    expect(changed.filter((key) => !['ai_score', 'ai_comment', 'validation_input_tokens', 'validation_output_tokens'].includes(key))).toEqual([])
    expect(after.ai_comment).toBe('explains the choice [fail]: The evidence lacks /warranty/i.')
    expect(Object.keys(after)).toEqual(Object.keys(before))
  })
})
