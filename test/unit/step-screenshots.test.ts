import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { RecordingComputer } from '../../src/trajectory/recording-computer.ts'
import { stepScreenshotsEnv } from '../../src/validity/validate.ts'
import { FakeComputer } from '../agents/helpers.ts'

/** A computer that counts its captures. */
class CountingComputer extends FakeComputer {
  captures = 0
  override screenshot() {
    this.captures++
    return super.screenshot()
  }
}

function recorded(stepScreenshots: boolean) {
  const runDir = mkdtempSync(join(tmpdir(), 'agentest-step-shots-'))
  const inner = new CountingComputer()
  const recorder = new Recorder(runDir, 't', null)
  const computer = new RecordingComputer(inner, recorder, { maxSteps: 5, signal: new AbortController().signal, stepScreenshots })
  return { runDir, inner, recorder, computer }
}

describe('run.step_screenshots', () => {
  test('on (the default): each step is captured once, and the agent is shown that capture', async () => {
    const { runDir, inner, recorder, computer } = recorded(true)
    await computer.click(10, 20)
    await computer.screenshot()
    await computer.type('hi')
    await recorder.flush()
    expect(inner.captures).toBe(2)
    expect(recorder.steps.map((s) => s.screenshot)).toEqual(['t/step-001.png', 't/step-002.png'])
    expect(readdirSync(join(runDir, 't')).filter((f) => f.endsWith('.png')).sort()).toEqual(['step-001.png', 'step-002.png'])
  })

  test('off: steps are on record without a capture, and an agent that looks still gets the screen as it is now', async () => {
    const { runDir, inner, recorder, computer } = recorded(false)
    await computer.click(10, 20)
    await computer.type('hi')
    expect(inner.captures).toBe(0)
    // Not an earlier picture: a capture taken when asked, reused until the next action.
    await computer.screenshot()
    await computer.screenshot()
    expect(inner.captures).toBe(1)
    await computer.keypress(['Enter'])
    await computer.screenshot()
    expect(inner.captures).toBe(2)
    await recorder.flush()
    expect(recorder.steps.map((s) => [s.action.type, s.screenshot])).toEqual([
      ['click', null],
      ['type', null],
      ['keypress', null],
    ])
    expect(readdirSync(join(runDir, 't')).filter((f) => f.endsWith('.png'))).toEqual([])
  })
})

describe("npm run validate's runs", () => {
  /** A project folder with this agentest.config.yaml (none when null). */
  const project = (yaml: string | null) => {
    const root = mkdtempSync(join(tmpdir(), 'agentest-validate-shots-'))
    if (yaml !== null) writeFileSync(join(root, 'agentest.config.yaml'), yaml)
    return root
  }

  test('without a grader no verdict reads a step screenshot: the runs skip them', () => {
    expect(stepScreenshotsEnv(project(null), false, {})).toEqual({ AGENTEST_STEP_SCREENSHOTS: 'false' })
    expect(stepScreenshotsEnv(project('grader: { model: null }\n'), false, {})).toEqual({ AGENTEST_STEP_SCREENSHOTS: 'false' })
  })

  test('with a grader, a flow check is judged on them: the runs keep what the config says', () => {
    expect(stepScreenshotsEnv(project('grader: { model: judge-1 }\n'), false, {})).toEqual({})
    expect(stepScreenshotsEnv(project(null), false, { AGENTEST_GRADER_MODEL: 'judge-1' })).toEqual({})
  })

  test('--step-screenshots keeps them either way', () => {
    expect(stepScreenshotsEnv(project(null), true, {})).toEqual({ AGENTEST_STEP_SCREENSHOTS: 'true' })
  })
})
