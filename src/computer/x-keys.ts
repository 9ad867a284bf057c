/**
 * CUA key names to X keysyms, for `xdotool key`. Lookup is case-insensitive; letters and digits
 * pass through. Every entry is checked against a real X server in the desktop tests.
 */
export const X_KEYSYMS: Readonly<Record<string, string>> = {
  // modifiers
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  altgr: 'ISO_Level3_Shift',
  shift: 'shift',
  cmd: 'super',
  command: 'super',
  meta: 'super',
  super: 'super',
  win: 'super',
  windows: 'super',
  // editing and navigation
  enter: 'Return',
  return: 'Return',
  tab: 'Tab',
  esc: 'Escape',
  escape: 'Escape',
  space: 'space',
  spacebar: 'space',
  backspace: 'BackSpace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'Page_Up',
  pgup: 'Page_Up',
  pagedown: 'Page_Down',
  pgdn: 'Page_Down',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  arrowup: 'Up',
  arrowdown: 'Down',
  arrowleft: 'Left',
  arrowright: 'Right',
  capslock: 'Caps_Lock',
  numlock: 'Num_Lock',
  scrolllock: 'Scroll_Lock',
  printscreen: 'Print',
  print: 'Print',
  pause: 'Pause',
  contextmenu: 'Menu',
  menu: 'Menu',
  // punctuation, by character and by name
  '/': 'slash',
  slash: 'slash',
  '\\': 'backslash',
  backslash: 'backslash',
  '-': 'minus',
  minus: 'minus',
  '+': 'plus',
  plus: 'plus',
  '=': 'equal',
  equal: 'equal',
  ',': 'comma',
  comma: 'comma',
  '.': 'period',
  period: 'period',
  ';': 'semicolon',
  semicolon: 'semicolon',
  "'": 'apostrophe',
  quote: 'apostrophe',
  '`': 'grave',
  backquote: 'grave',
  '[': 'bracketleft',
  bracketleft: 'bracketleft',
  ']': 'bracketright',
  bracketright: 'bracketright',
  ' ': 'space',
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
}

const F_KEYS: Record<string, string> = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`f${i + 1}`, `F${i + 1}`]))

/** Maps one CUA key name to an X keysym; throws on names it cannot place. */
export function toXKeysym(key: string): string {
  if (/^[a-zA-Z0-9]$/.test(key)) return key
  const direct = X_KEYSYMS[key]
  if (direct) return direct
  const normal = key.toLowerCase().replaceAll(/[\s_-]/g, '')
  const mapped = X_KEYSYMS[normal] ?? F_KEYS[normal]
  if (mapped) return mapped
  throw new Error(`unknown key "${key}"`)
}

/** Every keysym the table can produce, for checking against a real X server. */
export function allXKeysyms(): string[] {
  return [...new Set([...Object.values(X_KEYSYMS), ...Object.values(F_KEYS)])]
}
