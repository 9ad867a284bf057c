import { afterEach, describe, expect, test, type ExpectStatic } from 'vitest'
import { startModelServer, type ModelServer } from '../../fixtures/model-server/server.ts'
import { keywordJudge } from '../../fixtures/model-server/openai/judge-policy.ts'
import { createGrader, Judge, recordingExpect, type Evidence } from '../../src/grading/index.ts'
import { GraderConfig } from '../../src/schema/config.ts'
import type { CheckResult } from '../../src/schema/run.ts'

let server: ModelServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

const evidence = (answer: string | null, commands: string[] = []): Evidence => ({
  goal: 'List the headphones with prices.',
  answer: () => answer,
  finalScreenshot: async () => null,
  steps: () => [],
  commandOutput: async (command) => (commands.push(command), { output: 'hello\n', exit_code: 0 }),
})

/** The real expect with soft failures collected here, and a judge recording into the same list. */
async function harness(base: ExpectStatic, answer: string | null, withGrader: boolean, commands: string[] = []) {
  const checks: CheckResult[] = []
  const softFailures: unknown[] = []
  const probe = new Proxy(base, {
    get(target, prop, receiver) {
      if (prop === 'soft') return (error: unknown) => ({ toBeAgentestCheckPass: () => softFailures.push(error) })
      return Reflect.get(target, prop, receiver)
    },
  })
  const record = (c: CheckResult) => void checks.push(c)
  let grader = null
  if (withGrader) {
    server = await startModelServer({ policy: keywordJudge({ rules: [{ expected: /with its price/, require: [/\$\d/] }] }) })
    grader = createGrader(GraderConfig.parse({ model: 'judge-1', base_url: server.url, api_key_env: 'K' }), { K: 'sk-x' })
  }
  const judge = Judge.create({ grader, evidence: evidence(answer, commands), record })
  return { expect: recordingExpect(probe, record), judge, checks, softFailures }
}

describe('judged checks in a task body', () => {
  test('one recorded check per call, named by its label or its kind and rubric, with tokens and the spec', async () => {
    const { expect: check, judge, checks, softFailures } = await harness(expect, '- Sony: $399.99', true)
    await check(judge, 'lists prices').toPassRubric('each product with its price')
    await check(judge).toPassRubric('each product with its price, and more text that goes on and on until it is longer than eighty characters')
    check(1, 'a plain check').toBe(1)
    expect(checks.map((c) => [c.check, c.score])).toEqual([
      ['lists prices', 1],
      ['answer: each product with its price, and more text that goes on and on until it is long…', 1],
      ['a plain check', 1],
    ])
    expect(checks[0]).toMatchObject({ passed: true, message: 'The evidence has everything the rule requires.', judge: { type: 'returned_result', value: 'each product with its price', error: null } })
    expect(checks[0]!.input_tokens).toBeGreaterThan(0)
    expect(checks[2]).not.toHaveProperty('judge')
    expect(softFailures).toEqual([])
    expect(judge.unscoredNote()).toBeNull()
  })

  test('a failed judgement is a failed check that fails the test softly, with the comment as its message', async () => {
    const { expect: check, judge, checks, softFailures } = await harness(expect, '- Sony', true)
    await check(judge, 'lists prices').toPassRubric('each product with its price')
    check(2, 'the next check still runs').toBe(2)
    expect(checks[0]).toMatchObject({ check: 'lists prices', passed: false, score: 0, message: 'The evidence lacks /\\$\\d/.' })
    expect(checks[1]).toMatchObject({ passed: true })
    expect(softFailures).toHaveLength(1)
    expect((softFailures[0] as Error).message).toBe('The evidence lacks /\\$\\d/.')
  })

  test('without a grader the check is unscored: recorded with score -1, not failed, and the task is to be skipped', async () => {
    const commands: string[] = []
    const { expect: check, judge, checks, softFailures } = await harness(expect, 'anything', false, commands)
    await check(judge, 'lists prices').toPassRubric('each product with its price')
    await check(judge).toHaveCommandOutput('echo hello', 'prints hello')
    expect(checks.map((c) => [c.check, c.passed, c.score, c.message])).toEqual([
      ['lists prices', false, -1, 'unscored: needs a grader model'],
      ['command `echo hello`: prints hello', false, -1, 'unscored: needs a grader model'],
    ])
    expect(checks[1]!.judge).toEqual({ type: 'command_output', value: 'prints hello', command: 'echo hello', votes: [], error: 'needs a grader model' })
    // The command still ran, so its output is in the record for re-grading.
    expect(commands).toEqual(['echo hello'])
    expect(softFailures).toEqual([])
    expect(judge.unscoredNote()).toBe('needs a grader model')
  })

  test('every kind has its matcher, and any declared check goes through toPassCheck', async () => {
    const { expect: check, judge, checks } = await harness(expect, null, false)
    await check(judge).toHaveFinalScreen('the cart is empty')
    await check(judge).toFollowFlow('opens the cart, then empties it')
    await check(judge).toPassCheck({ type: 'final_screenshot', value: 'declared' })
    expect(checks.map((c) => c.judge?.type)).toEqual(['final_screenshot', 'expected_flow', 'final_screenshot'])
    expect(checks.map((c) => c.check)).toEqual(['final screen: the cart is empty', 'flow: opens the cart, then empties it', 'final screen: declared'])
  })

  test('checks that were not awaited are waited for before the task ends', async () => {
    const { expect: check, judge, checks } = await harness(expect, '$5', true)
    void check(judge, 'not awaited').toPassRubric('with its price')
    expect(checks).toHaveLength(0)
    await judge.settled()
    expect(checks.map((c) => [c.check, c.score])).toEqual([['not awaited', 1]])
  })

  test('misuse is a clear error: negation, or something other than the judge', async () => {
    const { expect: check, judge, softFailures } = await harness(expect, '$5', false)
    await check(judge).not.toPassRubric('x')
    await check('an answer').toPassRubric('x')
    expect(softFailures.map((e) => (e as Error).message)).toEqual([
      'a judged check cannot be negated; write the expectation the other way round',
      "judged matchers take the task's judge: await expect(judge).toPassRubric('...')",
    ])
  })
})
