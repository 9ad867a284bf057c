import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadRealTasks, loadSolutions, planCase } from '../../fixtures/apps/omnizon/real/index.ts'

const WEBSITE = { id: 'omnizon', name: 'Omnizon', similarTo: 'Amazon', url: 'https://evals-omnizon.vercel.app' }
const TASK = {
  id: 'omnizon-x',
  goal: 'Buy a tent.',
  website: WEBSITE,
  difficulty: 'easy',
  challengeType: 'action',
  possible: true,
  evals: [{ type: 'jmespath', expected_value: 1, query: 'length(orderDetailsDiff.added)' }],
  points: 1,
  config: {},
}

/** A folder of REAL task files: name -> JSON value (or raw text). */
function folder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-real-'))
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body))
  return dir
}

/** The lines of the InputError loading `dir` throws, with the folder written as `<dir>`. */
function problems(dir: string): string[] {
  try {
    loadRealTasks(dir)
  } catch (error) {
    expect((error as Error).name).toBe('InputError')
    return (error as Error).message.replaceAll(dir, '<dir>').split('\n')
  }
  throw new Error('loaded without a problem')
}

describe('loading a folder of REAL task files', () => {
  test('each *.json is a case, in name order; REAL\'s id is the file name and agentest\'s is real-<it>', () => {
    const dir = folder({ 'b.json': TASK, 'a.json': { ...TASK, id: 'something-else', extra: { kept: true } }, 'notes.txt': 'not a task' })
    const cases = loadRealTasks(dir)
    expect(cases.map((c) => [c.realId, c.id, c.file])).toEqual([
      ['a', 'real-a', join(dir, 'a.json')],
      ['b', 'real-b', join(dir, 'b.json')],
    ])
    // Unknown fields are kept, as REAL's loader ignores them; REAL's defaults fill the rest.
    expect(cases[0]!.task).toMatchObject({ extra: { kept: true }, possible: true, points: 1 })
    const { evals, ...rest } = TASK
    expect(loadRealTasks(folder({ 'c.json': { ...rest, evals: [{ script: 'eval_c.py' }] } }))[0]!.task.evals).toEqual([{ type: 'script', script: 'eval_c.py' }])
  })

  test('bad JSON, or a bad field, is one line naming the file and the field; every file is read first', () => {
    const { goal: _goal, ...noGoal } = TASK
    const dir = folder({
      'broken.json': '{"id": "x",',
      'no-goal.json': noGoal,
      'bad-eval.json': { ...TASK, evals: [TASK.evals[0], { type: 'regex', query: 'x' }, { type: 'llm_boolean' }, { type: 'jmespath', query: 'a' }] },
      'bad-query.json': { ...TASK, evals: [{ type: 'jmespath', expected_value: 1, query: 'orderDetailsDiff.[' }, { type: 'jmespath', expected_value: 1, query: 'nope(a)' }] },
      'no-evals.json': { ...TASK, evals: [] },
      'Upper Case.json': TASK,
      'kinds.json': { ...TASK, difficulty: 'trivial', website: undefined },
      'fine.json': TASK,
    })
    expect(problems(dir)).toEqual([
      '<dir>/Upper Case.json: id: the task id comes from the file name, "Upper Case": use lowercase letters, digits, ".", "_" and "-"',
      '<dir>/bad-eval.json: evals[1].type: type must be one of jmespath, llm_boolean, script',
      '<dir>/bad-eval.json: evals[2].rubric: an llm_boolean eval needs a rubric',
      '<dir>/bad-eval.json: evals[3].expected_value: a jmespath eval needs an expected_value (any JSON value)',
      expect.stringMatching(/^<dir>\/bad-query\.json: evals\[0\]\.query: does not parse as JMESPath: .+/),
      '<dir>/bad-query.json: evals[1].query: unknown function nope()',
      expect.stringMatching(/^<dir>\/broken\.json: not valid JSON: /),
      '<dir>/kinds.json: website: every task names its web clone: { "id": "omnizon", ... }',
      '<dir>/kinds.json: difficulty: Invalid option: expected one of "easy"|"medium"|"hard"',
      '<dir>/no-evals.json: evals: a task needs at least one eval (with none, every run passes)',
      '<dir>/no-goal.json: goal: every task needs a goal',
    ])
  })

  test('a missing or empty folder says so', () => {
    expect(problems(join(tmpdir(), 'agentest-real-none'))).toEqual(['<dir>: no such folder of REAL task files (AGENTEST_REAL_TASKS)'])
    expect(problems(folder({}))).toEqual(['<dir>: no REAL task files (*.json) in it'])
  })
})

describe('what each case becomes', () => {
  const plan = (task: object) => planCase(loadRealTasks(folder({ 'omnizon-x.json': task }))[0]!)

  test('jmespath evals are state checks, llm_boolean rubrics judged checks on the answer', () => {
    const p = plan({ ...TASK, evals: [...TASK.evals, { type: 'llm_boolean', rubric: 'Does it say so?' }, { type: 'jmespath', description: 'the tent', expected_value: 'p166', query: 'x.y' }] })
    expect(p.state).toEqual([{ index: 0, query: 'length(orderDetailsDiff.added)', expected: 1, name: 'evals[0]: length(orderDetailsDiff.added)' }])
    expect(p.checks).toEqual([{ type: 'returned_result', value: 'Does it say so?' }])
    expect(p).toMatchObject({ id: 'real-omnizon-x', omnizon: true, difficulty: 'easy', challenge_type: 'action', goal: 'Buy a tent.' })
    // x.y is not a path agentest maps: the case is skipped, the eval named with its reason.
    expect(p.unmapped).toEqual([{ file: expect.stringMatching(/omnizon-x\.json$/), index: 2, type: 'jmespath', what: 'x.y', reasons: [{ path: 'x', reason: expect.any(String) }] }])
    expect(p.skip).toMatch(/^unmapped REAL evals in .*omnizon-x\.json: evals\[2\] jmespath `x\.y`: x: not a part of REAL's Omnizon state/)
  })

  test('a script eval is unmapped; every unmapped eval is on the skip line', () => {
    const p = plan({ ...TASK, evals: [{ script: 'eval_omnizon_3.py' }, { type: 'jmespath', expected_value: true, query: 'initialfinaldiff.updated.miniCart.justAdded' }] })
    expect(p.state).toEqual([])
    expect(p.skip).toMatch(
      /evals\[0\] script `eval_omnizon_3\.py`: a v2 script grades REAL's own state .* \| evals\[1\] jmespath `initialfinaldiff\.updated\.miniCart\.justAdded`: initialfinaldiff\.updated\.miniCart: REAL's mini-cart pop-up/,
    )
  })

  test('another website, or a task REAL marks impossible, is skipped with the reason', () => {
    expect(plan({ ...TASK, website: { id: 'dashdish' } })).toMatchObject({ omnizon: false, skip: 'website "dashdish": agentest has no clone of it (it runs REAL\'s omnizon tasks only)' })
    expect(plan({ ...TASK, possible: false })).toMatchObject({ omnizon: true, skip: expect.stringMatching(/"possible": false/) })
    // REAL's "no-action" has no agentest challenge type; the task is left without one.
    expect(plan({ ...TASK, challengeType: 'no-action' }).challenge_type).toBeUndefined()
  })
})

describe('solutions.ts beside the cases', () => {
  test('none: every case runs without a solution', async () => {
    expect(await loadSolutions(folder({ 'a.json': TASK }), ['a'])).toEqual({})
  })

  test('a key that names no case, or a solution that is not a function, is a line naming the file and the key', async () => {
    const dir = folder({ 'a.json': TASK })
    writeFileSync(join(dir, 'solutions.ts'), "export default { a: { solution: async () => 'x', near_misses: { wrong: 'not a function' } }, b: { solution: async () => {} } }\n")
    await expect(loadSolutions(dir, ['a'])).rejects.toThrow(`${join(dir, 'solutions.ts')}: a.near_misses.wrong: must be an async function`)
    mkdirSync(join(dir, 'c'))
    writeFileSync(join(dir, 'c', 'solutions.ts'), 'export default { a: { solution: async () => {} }, b: { solution: async () => {} } }\n')
    await expect(loadSolutions(join(dir, 'c'), ['a'])).rejects.toThrow(`${join(dir, 'c', 'solutions.ts')}: b: no REAL task b.json in ${join(dir, 'c')}`)
  })

  test('a solutions file kept elsewhere (AGENTEST_REAL_SOLUTIONS): it must exist, and goal_starts must begin its case\'s goal', async () => {
    const dir = folder({ 'a.json': TASK })
    const file = join(dir, 'elsewhere.ts')
    await expect(loadSolutions(dir, ['a'], { file })).rejects.toThrow(`${file}: no such solutions file (AGENTEST_REAL_SOLUTIONS)`)
    writeFileSync(file, "export default { a: { goal_starts: 'Buy a tent', solution: async () => {} } }\n")
    expect(Object.keys(await loadSolutions(dir, ['a'], { file, goals: { a: 'Buy a tent.' } }))).toEqual(['a'])
    // REAL reuses ids across versions: v1's omnizon-3 is not v2's.
    await expect(loadSolutions(dir, ['a'], { file, goals: { a: 'Order me a pot.' } })).rejects.toThrow(
      `${file}: a.goal_starts: "Buy a tent" does not begin the goal of a.json in ${dir}: a solution for another task of that id`,
    )
  })
})
