import { describe, expect, test } from 'vitest'
import { chord, chords, planComputerAction } from '../../src/agents/anthropic-cu/actions.ts'
import { withCacheBreakpoints, type Message } from '../../src/agents/anthropic-cu/messages.ts'
import { defaultToolVersion } from '../../src/agents/anthropic-cu/options.ts'
import { fitForClaude } from '../../src/agents/anthropic-cu/screen.ts'

const pointer = async () => ({ x: 11, y: 22 })
const plan = (input: unknown, zoom = true) => planComputerAction(input, pointer, zoom)
const steps = async (input: unknown) => {
  const parsed = await plan(input)
  if (!parsed.ok) throw new Error(parsed.error)
  if (parsed.plan.kind !== 'steps') throw new Error(`not steps: ${parsed.plan.kind}`)
  return parsed.plan.steps
}

describe("Claude's computer actions become the Computer's", () => {
  test('every clicking action, with and without a coordinate, with held modifiers', async () => {
    expect(await steps({ action: 'left_click', coordinate: [10, 20] })).toEqual([{ type: 'click', x: 10, y: 20, button: 'left' }])
    expect(await steps({ action: 'right_click', coordinate: [10.4, 19.6] })).toEqual([{ type: 'click', x: 10, y: 20, button: 'right' }])
    expect(await steps({ action: 'middle_click' })).toEqual([{ type: 'click', x: 11, y: 22, button: 'middle' }])
    expect(await steps({ action: 'left_click', coordinate: [5, 6], text: 'ctrl+shift' })).toEqual([
      { type: 'click', x: 5, y: 6, button: 'left', keys: ['Control', 'Shift'] },
    ])
    expect(await steps({ action: 'double_click', coordinate: [1, 2] })).toEqual([{ type: 'double_click', x: 1, y: 2 }])
    expect(await steps({ action: 'triple_click', coordinate: [3, 4], text: 'shift' })).toEqual([{ type: 'triple_click', x: 3, y: 4, keys: ['Shift'] }])
  })

  test('moving, dragging, and the button pressed and released on its own', async () => {
    expect(await steps({ action: 'mouse_move', coordinate: [7, 8] })).toEqual([{ type: 'move', x: 7, y: 8 }])
    expect(await steps({ action: 'left_click_drag', start_coordinate: [1, 1], coordinate: [9, 9] })).toEqual([
      { type: 'drag', path: [{ x: 1, y: 1 }, { x: 9, y: 9 }] },
    ])
    // The oldest tool version's drag starts where the pointer is.
    expect(await steps({ action: 'left_click_drag', coordinate: [9, 9] })).toEqual([{ type: 'drag', path: [{ x: 11, y: 22 }, { x: 9, y: 9 }] }])
    expect(await steps({ action: 'left_mouse_down' })).toEqual([{ type: 'mouse_down', button: 'left' }])
    expect(await steps({ action: 'left_mouse_up', coordinate: [50, 60] })).toEqual([
      { type: 'move', x: 50, y: 60 },
      { type: 'mouse_up', button: 'left' },
    ])
  })

  test('keys in xdotool syntax, typed text, held keys, scrolling and waiting', async () => {
    expect(await steps({ action: 'key', text: 'ctrl+s' })).toEqual([{ type: 'keypress', keys: ['Control', 's'] }])
    expect(await steps({ action: 'key', text: 'Return' })).toEqual([{ type: 'keypress', keys: ['Enter'] }])
    expect(await steps({ action: 'key', text: 'ctrl+a BackSpace' })).toEqual([
      { type: 'keypress', keys: ['Control', 'a'] },
      { type: 'keypress', keys: ['Backspace'] },
    ])
    expect(await steps({ action: 'key', text: 'KP_0' })).toEqual([{ type: 'keypress', keys: ['Numpad0'] }])
    expect(chord('ctrl++')).toEqual(['Control', '+'])
    expect(chords('Page_Down shift+Tab')).toEqual([['PageDown'], ['Shift', 'Tab']])
    expect(await steps({ action: 'type', text: 'hello\nworld' })).toEqual([{ type: 'type', text: 'hello\nworld' }])
    expect(await steps({ action: 'hold_key', text: 'shift', duration: 1.5 })).toEqual([{ type: 'hold_key', keys: ['Shift'], ms: 1500 }])
    expect(await steps({ action: 'scroll', coordinate: [100, 200], scroll_direction: 'up', scroll_amount: 3 })).toEqual([
      { type: 'scroll', x: 100, y: 200, scroll_x: 0, scroll_y: -3 },
    ])
    expect(await steps({ action: 'scroll', scroll_direction: 'right', scroll_amount: 2, text: 'ctrl' })).toEqual([
      { type: 'scroll', x: 11, y: 22, scroll_x: 2, scroll_y: 0, keys: ['Control'] },
    ])
    expect(await steps({ action: 'wait', duration: 0.5 })).toEqual([{ type: 'wait', ms: 500 }])
  })

  test('observations are not steps; zoom exists only where the tool version enables it', async () => {
    expect(await plan({ action: 'screenshot' })).toEqual({ ok: true, plan: { kind: 'screenshot' } })
    expect(await plan({ action: 'cursor_position' })).toEqual({ ok: true, plan: { kind: 'cursor_position' } })
    expect(await plan({ action: 'zoom', region: [0, 0, 100, 50] })).toEqual({ ok: true, plan: { kind: 'zoom', region: [0, 0, 100, 50] } })
    const refused = await plan({ action: 'zoom', region: [0, 0, 100, 50] }, false)
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.error).toMatch(/^unknown action "zoom" \(the computer tool knows: key, .*cursor_position\)$/)
  })

  test('a bad input is one line naming the action and the field', async () => {
    expect(await plan({ action: 'left_click', coordinate: [1] })).toMatchObject({ ok: false, error: expect.stringMatching(/^left_click\.coordinate/) })
    expect(await plan({ action: 'scroll', coordinate: [1, 2], scroll_direction: 'sideways', scroll_amount: 1 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^scroll\.scroll_direction/),
    })
    expect(await plan({ action: 'key', text: 'ctrl+nosuchkey' })).toEqual({ ok: false, error: 'unknown key "nosuchkey"' })
    expect(await plan({ action: 'fly' })).toMatchObject({ ok: false, error: expect.stringMatching(/^unknown action "fly"/) })
    expect(await plan({})).toMatchObject({ ok: false, error: expect.stringMatching(/^unknown action undefined/) })
  })
})

describe('the Messages API conventions the loop keeps', () => {
  test('the tool version follows the model: zoom from Opus 4.5 and every 4.6-or-later model', () => {
    expect(defaultToolVersion('claude-opus-4-5-20251101')).toBe('computer_20251124')
    expect(defaultToolVersion('claude-sonnet-4-6')).toBe('computer_20251124')
    expect(defaultToolVersion('claude-sonnet-5')).toBe('computer_20251124')
    expect(defaultToolVersion('claude-sonnet-4-5')).toBe('computer_20250124')
    expect(defaultToolVersion('claude-sonnet-4-20250514')).toBe('computer_20250124')
    expect(defaultToolVersion('claude-3-7-sonnet-20250219')).toBe('computer_20250124')
    expect(defaultToolVersion('my-proxy-model')).toBe('computer_20250124')
  })

  test('screenshots are sized so the API never shrinks them on arrival', () => {
    expect(fitForClaude({ width: 1280, height: 800 })).toEqual({ width: 1280, height: 800 })
    const big = fitForClaude({ width: 1920, height: 1080 })
    expect(big.width * big.height).toBeLessThanOrEqual(1_150_000)
    expect(Math.abs(big.width / big.height - 1920 / 1080)).toBeLessThan(0.01)
    expect(fitForClaude({ width: 3000, height: 400 }).width).toBe(1568)
  })

  test('cache breakpoints go on the two newest user turns of the request, never into the history', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'goal' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'computer', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'computer', input: {} }] },
      { role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'tool_result', tool_use_id: 'b' }] },
    ]
    const sent = withCacheBreakpoints(history)
    const marked = sent.flatMap((m, i) => m.content.flatMap((block, j) => ('cache_control' in block ? [[i, j]] : [])))
    expect(marked).toEqual([[2, 0], [4, 1]])
    expect(JSON.stringify(history)).not.toContain('cache_control')
  })
})
