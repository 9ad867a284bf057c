import { describe, expect, test } from 'vitest'
import { gateRows, renderGate, variantProblems } from '../../src/validity/gate.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'

/** The fields the gate reads of a record. */
const record = (id: string, status: TestCaseRun['status'], variant: string | null = null, message?: string) =>
  ({ id, status, variant, error: message ? { kind: 'skipped', message } : null }) as unknown as TestCaseRun

describe('the gate on a task that cannot run here', () => {
  test('skipped under oracle and nop: listed with its reason, neither sound nor unsound', () => {
    const reason = 'needs the open internet: its task names https://example.org/'
    const runs = {
      oracle: [record('web', 'skipped', null, reason), record('ok', 'passed')],
      nop: [record('web', 'skipped', null, reason), record('ok', 'failed')],
      nearMiss: [record('ok', 'failed', 'wrong')],
      alternative: [],
    }
    const declared = { nearMisses: new Map([['web', ['wrong']], ['ok', ['wrong']]]), alternatives: new Map<string, string[]>() }
    const rows = gateRows(['ok', 'web'], declared, runs)
    expect(rows.map((row) => [row.id, row.verdict])).toEqual([['ok', 'sound'], ['web', 'skipped']])
    const table = renderGate('x', rows)
    expect(table).toContain(`skipped here (not judged):\n  - web: ${reason}`)
    expect(table.endsWith('all 1 task sound, 1 skipped')).toBe(true)
  })

  test('a task that passes nothing it should is still unsound when only the oracle was skipped', () => {
    const runs = { oracle: [record('t', 'skipped', null, 'no engine')], nop: [record('t', 'passed')], nearMiss: [], alternative: [] }
    const rows = gateRows(['t'], { nearMisses: new Map(), alternatives: new Map() }, runs)
    expect(rows[0]?.verdict).toBe('unsound')
  })

  test('a generated near miss that does not fit is n/a in the table, and why is said once per reason', () => {
    const na = (id: string, variant: string, why: string) => ({ ...record(id, 'skipped', variant), error: { kind: 'not_applicable', message: why } }) as unknown as TestCaseRun
    const noOrders = 'the lodge app declares no orders'
    const runs = {
      oracle: [record('a', 'passed'), record('b', 'passed')],
      nop: [record('a', 'failed'), record('b', 'failed')],
      nearMiss: [record('a', 'failed', 'wrong'), na('a', 'duplicate', noOrders), na('a', 'hedger', 'no candidates'), record('b', 'failed', 'wrong'), na('b', 'duplicate', noOrders)],
      alternative: [],
    }
    const declared = { nearMisses: new Map([['a', ['wrong', 'duplicate', 'hedger']], ['b', ['wrong', 'duplicate']]]), alternatives: new Map<string, string[]>() }
    const rows = gateRows(['a', 'b'], declared, runs)
    expect(rows.map((row) => row.verdict)).toEqual(['sound', 'sound'])
    const table = renderGate('x', rows)
    expect(table).toContain('wrong ✓ · duplicate n/a · hedger n/a')
    expect(table).toContain(`n/a (generated near misses that do not fit the task):\n  - duplicate on a, b: ${noOrders}\n  - hedger on a: no candidates\nno problems`)
  })

  test('a near miss cut short by its budget is a broken variant, never a weak check', () => {
    const cut = { id: 't', status: 'passed', variant: 'wrong item', agent_status: 'max_steps', max_steps: 10, error: { kind: 'max_steps', message: 'step limit of 10 reached' } } as unknown as TestCaseRun
    const runs = { oracle: [record('t', 'passed')], nop: [record('t', 'failed')], nearMiss: [cut], alternative: [] }
    const [row] = gateRows(['t'], { nearMisses: new Map([['t', ['wrong item']]]), alternatives: new Map() }, runs)
    expect(row?.verdict).toBe('unsound')
    expect(row?.problems).toEqual(['near miss "wrong item" passed, but it was cut short by its 10-step budget before it finished: a broken variant, not a weak check (give it what it needs)'])
    expect(variantProblems('near miss', new Map([['t', ['wrong item']]]), [cut])).toEqual(['t [wrong item]: passed, cut short by its 10-step budget: a broken variant, not a weak check'])
  })
})
