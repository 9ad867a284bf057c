import { describe, expect, test } from 'vitest'
import { toPlaywrightKey } from '../../src/computer/keys.ts'

describe('CUA key names to Playwright keys', () => {
  test.each([
    ['CTRL', 'Control'],
    ['ctrl', 'Control'],
    ['Enter', 'Enter'],
    ['RETURN', 'Enter'],
    ['ESC', 'Escape'],
    ['ArrowDown', 'ArrowDown'],
    ['DOWN', 'ArrowDown'],
    ['cmd', 'Meta'],
    ['SUPER', 'Meta'],
    ['option', 'Alt'],
    ['SPACE', ' '],
    ['BACKSPACE', 'Backspace'],
    ['page_down', 'PageDown'],
    ['F5', 'F5'],
    ['a', 'a'],
    ['/', '/'],
    ['slash', '/'],
    ['plus', '+'],
  ])('%s -> %s', (cua, playwright) => {
    expect(toPlaywrightKey(cua)).toBe(playwright)
  })

  test('an unknown key name is an error, not a silent no-op', () => {
    expect(() => toPlaywrightKey('hyperdrive')).toThrow('unknown key "hyperdrive"')
  })
})
