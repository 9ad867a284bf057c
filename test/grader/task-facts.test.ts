import { describe, expect, test } from 'vitest'
import type { JudgeRequest } from '../../fixtures/model-server/openai/judge-policy.ts'
import { TASK_FACT_RULES } from './task-facts.ts'

/** Which facts of omnizon-6's rubric an answer fails, as the strict test grader decides them. */
function unmet(answer: string): string[] {
  const rule = TASK_FACT_RULES.find((r) => r.expected.test('explains the choice of the Galaxy S24 Ultra over the Z Fold6'))!
  const request: JudgeRequest = { kind: 'returned_result', expected: '', evidence: answer, blocks: [{ kind: 'answer', text: answer }], images: 0 }
  return rule.facts!(request).filter((fact) => !fact.met).map((fact) => fact.question)
}

describe('the strict test grader decides omnizon-6 from the listings', () => {
  test('right explanations pass, in other words too', () => {
    expect(unmet('I bought the Samsung Galaxy S24 Ultra: at $1,119.99 it costs $780 less than the Z Fold6 ($1,899.99) and has a better camera (200 MP vs 50 MP).')).toEqual([])
    expect(unmet('Bought the Galaxy S24 Ultra. It is $1,119.99 against $1,899.99 for the Galaxy Z Fold6, and it is rated higher (4.6 vs 4.3 stars).')).toEqual([])
  })

  test('no reason, or a wrong figure, fails', () => {
    expect(unmet('I bought the Samsung Galaxy S24 Ultra.')).toEqual([
      'Does it say the S24 Ultra costs less, or give both prices?',
      'Does it give a true reason (camera, battery, zoom, S Pen or rating)?',
    ])
    expect(unmet('I bought the S24 Ultra: it costs $999 less and has a 250 MP camera.')).toEqual([
      'Does it give a true reason (camera, battery, zoom, S Pen or rating)?',
      'Are its dollar figures real (the two prices or their difference)?',
      'Are its camera and battery figures real?',
    ])
  })
})

describe('the strict test grader decides desktop-files-organize from the recorded steps', () => {
  const unmetFlow = (actions: string[]) => {
    const rule = TASK_FACT_RULES.find((r) => r.expected.test('works in the file manager window: creates a Pictures folder on the Desktop'))!
    const blocks = actions.map((action) => ({ kind: 'step', text: `action: ${action}` }))
    return rule.facts!({ kind: 'expected_flow', expected: '', evidence: '', blocks, images: 0 }).filter((f) => !f.met).length
  }

  test('cut and paste in the file manager passes; the terminal shortcut fails', () => {
    expect(unmetFlow(['press ctrl+shift+n', 'type "Pictures\\n"', 'type "cat.jpg"', 'press escape', 'press ctrl+x', 'type "pictures\\n"', 'press ctrl+v'])).toBe(0)
    expect(unmetFlow(['press f4', 'type "mkdir Pictures && mv *.jpg *.jpeg *.png Pictures/"', 'type "exit\\n"'])).toBe(3)
  })
})
