import { canonicalKey, KEY_ALIASES } from './key-names.ts'

/**
 * Canonical key names to X keysyms, for `xdotool key`. Letters and digits are their own keysym.
 * Every entry is checked against a real X server in the desktop tests.
 */
export const X_KEYSYMS: Readonly<Record<string, string>> = {
  Control: 'ctrl',
  Alt: 'alt',
  AltGraph: 'ISO_Level3_Shift',
  Shift: 'shift',
  Meta: 'super',
  Enter: 'Return',
  Tab: 'Tab',
  Escape: 'Escape',
  ' ': 'space',
  Backspace: 'BackSpace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'Page_Up',
  PageDown: 'Page_Down',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  CapsLock: 'Caps_Lock',
  NumLock: 'Num_Lock',
  ScrollLock: 'Scroll_Lock',
  PrintScreen: 'Print',
  Pause: 'Pause',
  ContextMenu: 'Menu',
  '/': 'slash',
  '\\': 'backslash',
  '-': 'minus',
  '+': 'plus',
  '=': 'equal',
  ',': 'comma',
  '.': 'period',
  ';': 'semicolon',
  "'": 'apostrophe',
  '`': 'grave',
  '[': 'bracketleft',
  ']': 'bracketright',
  '!': 'exclam',
  '@': 'at',
  '#': 'numbersign',
  $: 'dollar',
  '%': 'percent',
  '^': 'asciicircum',
  '&': 'ampersand',
  '*': 'asterisk',
  '(': 'parenleft',
  ')': 'parenright',
  _: 'underscore',
  '{': 'braceleft',
  '}': 'braceright',
  '|': 'bar',
  ':': 'colon',
  '"': 'quotedbl',
  '<': 'less',
  '>': 'greater',
  '?': 'question',
  '~': 'asciitilde',
  ...Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`F${i + 1}`, `F${i + 1}`])),
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`Numpad${i}`, `KP_${i}`])),
  NumpadEnter: 'KP_Enter',
  NumpadAdd: 'KP_Add',
  NumpadSubtract: 'KP_Subtract',
  NumpadMultiply: 'KP_Multiply',
  NumpadDivide: 'KP_Divide',
  NumpadDecimal: 'KP_Decimal',
}

/** Maps a CUA key name to an X keysym; throws on names it cannot place. */
export function toXKeysym(key: string): string {
  const canonical = canonicalKey(key)
  if (/^[a-zA-Z0-9]$/.test(canonical)) return canonical
  const keysym = X_KEYSYMS[canonical]
  if (!keysym) throw new Error(`no X keysym for key "${key}"`)
  return keysym
}

/** Every keysym the table can produce, for checking against a real X server. */
export function allXKeysyms(): string[] {
  return [...new Set(Object.values(X_KEYSYMS))]
}

/** Every alias must land on a key X knows; the tests hold this. */
export function unmappedAliases(): string[] {
  return Object.values(KEY_ALIASES).filter((canonical) => !X_KEYSYMS[canonical])
}
