import { describe, expect, test } from 'vitest'
import { KEY_ALIASES } from '../../src/computer/key-names.ts'
import { toXKeysym, unmappedAliases, X_KEYSYMS } from '../../src/computer/x-keys.ts'

describe('CUA key names to X keysyms', () => {
  test.each(Object.entries(X_KEYSYMS))('canonical %j -> %s', (canonical, keysym) => {
    expect(toXKeysym(canonical)).toBe(keysym)
  })

  test.each(Object.entries(KEY_ALIASES))('alias %j reaches a keysym', (alias, canonical) => {
    expect(toXKeysym(alias)).toBe(X_KEYSYMS[canonical])
  })

  test('every alias has a keysym', () => {
    expect(unmappedAliases()).toEqual([])
  })

  test.each([
    ['CTRL', 'ctrl'],
    ['ENTER', 'Return'],
    ['ArrowLeft', 'Left'],
    ['PAGE_DOWN', 'Page_Down'],
    ['Cmd', 'super'],
    ['F1', 'F1'],
    ['f24', 'F24'],
    ['/', 'slash'],
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
