import { describe, expect, test } from 'vitest'
import { parseTextActions } from '../../src/agents/openai-chat/text-actions.ts'

describe('UI-TARS-style text actions', () => {
  test('a thought and each way of writing a point', () => {
    const parsed = parseTextActions(
      [
        'Thought: The search box is at the top.',
        "Action: click(start_box='<|box_start|>(595,30)<|box_end|>')",
        '',
        "left_double(start_box='(10, 20)')",
        '',
        "right_single(point='<point>300 400</point>')",
        '',
        "click(start_box='[100, 200, 300, 400]')",
      ].join('\n'),
    )
    expect(parsed).toEqual({
      ok: true,
      thought: 'The search box is at the top.',
      actions: [
        { kind: 'click', at: { x: 595, y: 30 }, button: 'left' },
        { kind: 'double_click', at: { x: 10, y: 20 } },
        { kind: 'click', at: { x: 300, y: 400 }, button: 'right' },
        // A box is clicked at its centre.
        { kind: 'click', at: { x: 200, y: 300 }, button: 'left' },
      ],
    })
  })

  test('typing with escapes and a submitting newline, keys, scrolls, drags, finishing', () => {
    const parsed = parseTextActions(
      [
        "Action: type(content='it\\'s a \"test\" (really)\\n')",
        "hotkey(key='ctrl a')",
        "scroll(start_box='(640,400)', direction='down')",
        "drag(start_box='(1,2)', end_box='(3,4)')",
        'wait()',
        "finished(content='Line one\\nLine two')",
      ].join('\n\n'),
    )
    expect(parsed.ok && parsed.actions).toEqual([
      { kind: 'type', text: 'it\'s a "test" (really)', submit: true },
      { kind: 'keypress', keys: ['ctrl', 'a'] },
      { kind: 'scroll', at: { x: 640, y: 400 }, direction: 'down' },
      { kind: 'drag', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } },
      { kind: 'wait' },
      { kind: 'finished', answer: 'Line one\nLine two' },
    ])
  })

  test.each([
    ['I would click the button.', 'the reply has no "Action:" line'],
    ['Action: ', 'the "Action:" line holds no action'],
    ["Action: tap(start_box='(1,2)')", 'unknown action "tap"'],
    ["Action: click(start_box='somewhere')", 'click: start_box is not a point: somewhere'],
    ['Action: click()', 'click: start_box is missing'],
    ["Action: scroll(start_box='(1,2)', direction='sideways')", 'scroll: direction must be up, down, left or right'],
  ])('%s is an error the model is told about', (reply, error) => {
    const parsed = parseTextActions(reply)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.error).toContain(error)
  })
})
