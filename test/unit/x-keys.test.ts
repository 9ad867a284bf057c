import { describe, expect, test } from 'vitest'
import { toXKeysym, X_KEYSYMS } from '../../src/computer/x-keys.ts'

describe('CUA key names to X keysyms', () => {
  test.each(Object.entries(X_KEYSYMS))('%j -> %s', (cua, keysym) => {
    expect(toXKeysym(cua)).toBe(keysym)
  })

  test.each([
    ['CTRL', 'ctrl'],
    ['ENTER', 'Return'],
    ['ArrowLeft', 'Left'],
    ['PAGE_DOWN', 'Page_Down'],
    ['Cmd', 'super'],
    ['F1', 'F1'],
    ['f24', 'F24'],
    ['a', 'a'],
    ['Z', 'Z'],
    ['7', '7'],
  ])('%s (any case or spelling) -> %s', (cua, keysym) => {
    expect(toXKeysym(cua)).toBe(keysym)
  })

  test('an unknown key name is an error', () => {
    expect(() => toXKeysym('hyperdrive')).toThrow('unknown key "hyperdrive"')
  })
})
