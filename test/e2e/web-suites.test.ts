import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { renderGate } from '../../src/validity/gate.ts'
import { validate } from '../../src/validity/validate.ts'
import { ROOT, taskIds } from './run-benchmark.ts'

/**
 * The validity gate for the suites on environments of their own: tasks/inbox (an app with a
 * state contract, started by a command) and tasks/docs (a static site without one). Oracle and
 * every alternative pass, nop and every near miss (declared and generated) fail.
 */
describe('tasks/inbox and tasks/docs: the gate on declared environments', { timeout: 1_200_000 }, () => {
  test('every task is sound', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'agentest-web-suites-'))
    const { rows } = await validate({ root: ROOT, targets: ['tasks/inbox', 'tasks/docs'], outDir, log: () => {} })
    console.log(renderGate('tasks/inbox tasks/docs', rows))
    expect(rows.map((row) => row.id).sort()).toEqual([...taskIds('docs'), ...taskIds('inbox')].sort())
    expect(rows.length).toBeGreaterThanOrEqual(10)
    expect(rows.flatMap((row) => row.problems.map((problem) => `${row.id}: ${problem}`))).toEqual([])
    expect(rows.filter((row) => row.verdict !== 'sound').map((row) => row.id)).toEqual([])
  })
})
