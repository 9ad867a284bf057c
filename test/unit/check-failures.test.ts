import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chai, describe, expect, test, type ExpectStatic } from 'vitest'
import { recordingExpect } from '../../src/grading/index.ts'
import type { CheckResult } from '../../src/schema/run.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'

/** The real expect, with soft failures collected instead of failing this test. */
function harness() {
  const checks: CheckResult[] = []
  const probe = new Proxy(expect, {
    get(target, prop, receiver) {
      if (prop === 'soft') return () => ({ toBeAgentestCheckPass: () => undefined })
      return Reflect.get(target, prop, receiver)
    },
  })
  return { check: recordingExpect(probe, (c) => void checks.push(c)), checks }
}

const ESC = '\u001b'
const PLACED = { 'OZ-1001': 'placed', 'OZ-1002': 'placed', 'OZ-1003': 'cancelled' }
const WANTED = { 'OZ-1001': 'placed', 'OZ-1002': 'cancelled', 'OZ-1003': 'cancelled' }

describe('a failed check reads in full', () => {
  test('its name is recorded once: beside the message, not in it too', () => {
    const { check, checks } = harness()
    check(1, 'two lines in the cart').toBe(2)
    expect(checks[0]).toMatchObject({ check: 'two lines in the cart', message: 'expected 1 to be 2 // Object.is equality' })
  })

  test('the console line names the check once', async () => {
    const shown: string[] = []
    const recorder = new Recorder(mkdtempSync(join(tmpdir(), 'agentest-checks-')), 't', async (message) => shown.push(message))
    const { check, checks } = harness()
    check(1, 'two lines in the cart').toBe(2)
    await recorder.recordCheck(checks[0]!)
    expect(shown).toEqual(['✗ two lines in the cart: expected 1 to be 2 // Object.is equality'])
  })

  test('objects: the message is not cut, and the record has both values and their diff', () => {
    const { check, checks } = harness()
    check(PLACED, 'order statuses').toEqual(WANTED)
    const [failed] = checks
    expect(failed!.message).toBe(
      "expected { 'OZ-1001': 'placed', 'OZ-1002': 'placed', 'OZ-1003': 'cancelled' } to deeply equal { 'OZ-1001': 'placed', 'OZ-1002': 'cancelled', 'OZ-1003': 'cancelled' }",
    )
    expect(failed!.received).toBe('{\n  "OZ-1001": "placed",\n  "OZ-1002": "placed",\n  "OZ-1003": "cancelled",\n}')
    expect(failed!.expected).toContain('"OZ-1002": "cancelled"')
    expect(failed!.diff).toContain('-   "OZ-1002": "cancelled",\n+   "OZ-1002": "placed",')
    expect(JSON.stringify(failed)).not.toContain(ESC)
  })

  test('strings: both in full, no diff for one line', () => {
    const long = 'The home page shows laptops, coffee machines and headphones.'
    const { check, checks } = harness()
    check(long, 'the answer').toBe(`${long} Also a pair of speakers.`)
    expect(checks[0]!.message).toContain(`'${long}'`)
    expect(checks[0]!.message).not.toContain('…')
    expect(checks[0]).toMatchObject({ received: JSON.stringify(long), expected: JSON.stringify(`${long} Also a pair of speakers.`) })
    expect(checks[0]!.diff).toBeUndefined()
  })

  test('async matchers are recorded in full too, and the cut is put back after', async () => {
    const threshold = chai.config.truncateThreshold
    const { check, checks } = harness()
    await check(Promise.resolve(PLACED), 'resolves to the orders').resolves.toEqual(WANTED)
    expect(checks[0]!.message).toContain("'OZ-1003': 'cancelled' }")
    expect(checks[0]!.diff).toBeDefined()
    expect(chai.config.truncateThreshold).toBe(threshold)
  })

  test('a passed check carries no values', () => {
    const { check, checks } = harness()
    check(PLACED, 'order statuses').toEqual(PLACED)
    expect(checks[0]).toEqual({ check: 'order statuses', passed: true, score: 1, message: null, input_tokens: 0, output_tokens: 0 })
  })
})

describe('no terminal colours reach a record', () => {
  test('a matcher message with escape codes is recorded as plain text', () => {
    const { check, checks } = harness()
    const coloured = new Error(`locator.click: Timeout\nCall log:\n${ESC}[2m  - waiting for locator('#buy')${ESC}[22m`)
    check(() => {
      throw coloured
    }, 'clicks buy').not.toThrow()
    // Chai quotes the thrown message, spelling the codes out (`\u001b[2m`): those go too.
    expect(checks[0]!.message).toContain("Call log:\\n  - waiting for locator(\\'#buy\\')' was thrown")
    expect(JSON.stringify(checks)).not.toMatch(/\u001b|\\u001b/)
  })

  test('the recorder strips checks and step errors it is handed (a grader or a computer may colour them)', async () => {
    const recorder = new Recorder(mkdtempSync(join(tmpdir(), 'agentest-checks-')), 't', null)
    await recorder.recordCheck({ check: 'c', passed: false, score: 0, message: `${ESC}[31mred${ESC}[39m`, diff: `${ESC}[32m- a${ESC}[39m`, input_tokens: 0, output_tokens: 0 })
    await recorder.recordStep({ action: { type: 'wait', ms: 1 }, screenshot: null, url: null, error: `${ESC}[2mdim${ESC}[22m` })
    expect(recorder.checks[0]).toMatchObject({ message: 'red', diff: '- a' })
    expect(recorder.steps[0]!.error).toBe('dim')
  })
})
