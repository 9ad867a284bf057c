import { describe, expect, test } from 'vitest'
import { parseVerdict, verdictJsonSchema } from '../../src/grading/grader/verdict.ts'
import { decide } from '../../src/grading/grader/vote.ts'
import { sampleIndexes } from '../../src/grading/grader/prompt.ts'
import { aiGrading, withJudgedChecks } from '../../src/grading/judge/ai-score.ts'
import { toCheckResult } from '../../src/grading/judge/check-result.ts'
import type { Vote } from '../../src/schema/grading.ts'

const vote = (model: string, score: 1 | 0 | -1, extra: Partial<Vote> = {}): Vote => ({
  model,
  score,
  comment: score === -1 ? null : `${model} says ${score}`,
  checklist: [],
  error: score === -1 ? 'HTTP 500' : null,
  input_tokens: 100,
  output_tokens: 10,
  ...extra,
})

describe('parseVerdict', () => {
  test('reads the structured answer', () => {
    const parsed = parseVerdict('{"checklist":[{"question":"Names the phone?","answer":"yes, S24 Ultra","met":true}],"score":1,"comment":"ok"}')
    expect(parsed).toEqual({ ok: true, verdict: { checklist: [{ question: 'Names the phone?', answer: 'yes, S24 Ultra', met: true }], score: 1, comment: 'ok' } })
  })

  test('reads JSON wrapped in prose or a code fence, and scores spelled as strings or booleans', () => {
    expect(parseVerdict('Here is my verdict:\n```json\n{"score": "0", "comment": "no price"}\n```')).toMatchObject({ ok: true, verdict: { score: 0, checklist: [] } })
    expect(parseVerdict('{"score": true, "comment": "fine", "checklist": "n/a"}')).toMatchObject({ ok: true, verdict: { score: 1, checklist: [] } })
  })

  test('anything else is not a verdict, with the reason', () => {
    expect(parseVerdict('I think it passes.')).toMatchObject({ ok: false, problem: expect.stringMatching(/^no JSON object/) })
    expect(parseVerdict('{"score": 1, "comment": "x"')).toMatchObject({ ok: false, problem: expect.stringMatching(/^no JSON object/) })
    expect(parseVerdict('{"score": 1, comment: x}')).toMatchObject({ ok: false, problem: expect.stringMatching(/^not JSON/) })
    expect(parseVerdict('{"score": 0.7, "comment": "mostly"}')).toMatchObject({ ok: false, problem: expect.stringMatching(/^not a verdict: score/) })
    expect(parseVerdict('{"score": 1}')).toMatchObject({ ok: false, problem: expect.stringMatching(/^not a verdict: comment/) })
  })

  test('the JSON schema sent for structured output is strict', () => {
    const schema = verdictJsonSchema()
    expect(schema).not.toHaveProperty('$schema')
    expect(schema).toMatchObject({
      type: 'object',
      required: ['checklist', 'score', 'comment'],
      additionalProperties: false,
      properties: { score: { enum: [0, 1] }, checklist: { type: 'array', items: { additionalProperties: false, required: ['question', 'answer', 'met'] } } },
    })
  })
})

describe('majority vote', () => {
  test('one grader decides alone', () => {
    expect(decide([vote('a', 1)])).toMatchObject({ score: 1, comment: 'a says 1', error: null, input_tokens: 100, output_tokens: 10 })
    expect(decide([vote('a', 0)])).toMatchObject({ score: 0, comment: 'a says 0' })
    expect(decide([vote('a', -1)])).toMatchObject({ score: -1, comment: null, error: 'HTTP 500' })
  })

  test('a majority of all graders decides; every vote and its tokens are kept', () => {
    const judgement = decide([vote('a', 1), vote('b', 0), vote('c', 1)])
    expect(judgement).toMatchObject({ score: 1, comment: 'a says 1 (2 of 3 graders passed it)', input_tokens: 300, output_tokens: 30 })
    expect(judgement.votes.map((v) => [v.model, v.score])).toEqual([['a', 1], ['b', 0], ['c', 1]])
    expect(decide([vote('a', 0), vote('b', 0), vote('c', 1)])).toMatchObject({ score: 0, comment: 'a says 0 (1 of 3 graders passed it)' })
    expect(decide([vote('a', 1), vote('b', -1), vote('c', 1)])).toMatchObject({ score: 1 })
  })

  test('without a majority of all graders the check is unscored, with the reason', () => {
    expect(decide([vote('a', 1), vote('b', 0)])).toMatchObject({ score: -1, error: 'no majority: 1 pass, 1 fail of 2 graders' })
    // One pass and two graders without a verdict: a minority never decides.
    expect(decide([vote('a', 1), vote('b', -1), vote('c', -1)])).toMatchObject({
      score: -1,
      error: 'no majority: 1 pass, 0 fail, 2 without a verdict (b: HTTP 500; c: HTTP 500) of 3 graders',
    })
    expect(decide([vote('a', -1), vote('b', -1, { error: 'unparsable' })])).toMatchObject({ score: -1, error: 'a: HTTP 500; b: unparsable' })
  })
})

describe('ai_score and ai_comment', () => {
  const judged = (name: string, score: 1 | 0 | -1) =>
    toCheckResult(name, { type: 'returned_result', value: `rubric ${name}` }, score === -1 ? { ...decide([vote('m', -1)]) } : decide([vote('m', score)]))
  const plain = { check: 'exactly one order', passed: false, score: 0, message: 'expected 2 to be 1', input_tokens: 0, output_tokens: 0 }

  test('1 if every judged check passed, 0 if any failed, -1 if none was judged or one is unscored', () => {
    expect(aiGrading([plain])).toEqual({ ai_score: -1, ai_comment: null, validation_input_tokens: 0, validation_output_tokens: 0 })
    expect(aiGrading([plain, judged('a', 1), judged('b', 1)]).ai_score).toBe(1)
    expect(aiGrading([judged('a', 1), judged('b', 0), judged('c', -1)]).ai_score).toBe(0)
    expect(aiGrading([judged('a', 1), judged('c', -1)]).ai_score).toBe(-1)
  })

  test('the comment names each judged check and its outcome; tokens are summed', () => {
    expect(aiGrading([plain, judged('a', 1), judged('b', -1)])).toEqual({
      ai_score: -1,
      ai_comment: 'a [pass]: m says 1\nb [unscored]: HTTP 500',
      validation_input_tokens: 200,
      validation_output_tokens: 20,
    })
  })

  test("a stored run's checks are the declared ones plus every judged one, once each", () => {
    const declared = [{ type: 'final_screenshot' as const, value: 'the cart is empty' }]
    expect(withJudgedChecks(declared, [plain, judged('a', 1), judged('a', 0)])).toEqual([...declared, { type: 'returned_result', value: 'rubric a' }])
  })
})

test('a long flow sends at most max screenshots: the first, the last and evenly between', () => {
  const has = Array.from({ length: 10 }, (_, i) => i !== 3)
  expect([...sampleIndexes(has, 20)]).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9])
  expect([...sampleIndexes(has, 3)].sort((a, b) => a - b)).toEqual([0, 5, 9])
  expect([...sampleIndexes(has, 1)]).toEqual([9])
})
