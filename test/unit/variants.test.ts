import { describe, expect, test } from 'vitest'
import { InputError } from '../../src/errors/input-error.ts'
import { parseTaskSpec } from '../../src/task/spec.ts'
import { variantKindOf, variantNames, variantSolution } from '../../src/task/variants/variants.ts'

const solve = async () => 'answer'
const base = { id: 't-1', goal: 'Find it.', app: 'omnizon' as const, solution: solve }

function refusal(input: object): string {
  try {
    parseTaskSpec(input, 'tasks/demo/t-1.task.ts')
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error('expected the task to be refused')
}

describe('the variants a task runs under the near-miss and alternative agents', () => {
  test('questions get the hedger and the echo; shop tasks that act get placed-then-cancelled and the duplicate', () => {
    const question = parseTaskSpec({ ...base, challenge_type: 'retrieval', near_misses: { 'wrong one': solve } }, 'f')
    expect(variantNames(question, 'near miss')).toEqual(['wrong one', 'hedger', 'echo'])
    const both = parseTaskSpec({ ...base, challenge_type: 'retrieval-action' }, 'f')
    expect(variantNames(both, 'near miss')).toEqual(['hedger', 'echo', 'placed then cancelled', 'duplicate'])
    const desktopAction = parseTaskSpec({ id: 'd-1', goal: 'Do it.', desktop_image: 'agentest/desktop', challenge_type: 'action', solution: solve }, 'f')
    expect(variantNames(desktopAction, 'near miss')).toEqual([])
  })

  test('alternatives run under their own agent; a generated variant needs the reference to build on', async () => {
    const spec = parseTaskSpec({ ...base, challenge_type: 'retrieval', alternatives: { 'by category': solve } }, 'f')
    expect(variantNames(spec, 'alternative')).toEqual(['by category'])
    expect(variantKindOf('alternative')).toBe('alternative')
    expect(variantKindOf('near-miss')).toBe('near miss')
    expect(variantKindOf('oracle')).toBeNull()
    expect(variantSolution(spec, 'alternative', 'by category')).toBe(solve)
    expect(variantSolution(parseTaskSpec({ ...base, solution: undefined, challenge_type: 'retrieval' }, 'f'), 'near miss', 'echo')).toBeNull()
    // The echo answers with the goal's words and does nothing else.
    const echo = variantSolution(spec, 'near miss', 'echo')!
    expect(await echo({} as never)).toBe('Find it.')
  })

  test('a declared near miss cannot take a generated one\'s name', () => {
    expect(refusal({ ...base, near_misses: { hedger: solve } })).toMatch(/^tasks\/demo\/t-1\.task\.ts: agentTest\(\): near_misses\.hedger: "hedger" is the name of a generated near miss; pick another$/)
  })

  test('a goal that names an app must come with its shortcut near miss', () => {
    const desktop = { id: 't-1', goal: 'In Gnumeric, ...', desktop_image: 'agentest/desktop' as const, solution: solve, tool: 'gnumeric' }
    expect(refusal(desktop)).toBe('tasks/demo/t-1.task.ts: agentTest(): near_misses: the goal names gnumeric, so declare a near miss named "shortcut" that does the task without it (its checks must catch that)')
    expect(parseTaskSpec({ ...desktop, near_misses: { shortcut: solve } }, 'f').tool).toBe('gnumeric')
  })
})
