/**
 * Key names as models send them ("CTRL", "enter", "ArrowDown", "cmd", "PAGE_DOWN") resolved to
 * one canonical name, Playwright's spelling ("Control", "Enter", "ArrowDown", "Meta",
 * "PageDown"). Each backend maps canonical names to its own (see keys.ts and x-keys.ts).
 */
export const KEY_ALIASES: Readonly<Record<string, string>> = {
  ctrl: 'Control',
  control: 'Control',
  alt: 'Alt',
  option: 'Alt',
  altgr: 'AltGraph',
  altgraph: 'AltGraph',
  shift: 'Shift',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
  super: 'Meta',
  win: 'Meta',
  windows: 'Meta',
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  esc: 'Escape',
  escape: 'Escape',
  space: ' ',
  spacebar: ' ',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pgup: 'PageUp',
  pagedown: 'PageDown',
  pgdn: 'PageDown',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
  capslock: 'CapsLock',
  numlock: 'NumLock',
  scrolllock: 'ScrollLock',
  printscreen: 'PrintScreen',
  print: 'PrintScreen',
  pause: 'Pause',
  contextmenu: 'ContextMenu',
  menu: 'ContextMenu',
  slash: '/',
  backslash: '\\',
  minus: '-',
  plus: '+',
  equal: '=',
  comma: ',',
  period: '.',
  semicolon: ';',
  quote: "'",
  backquote: '`',
  bracketleft: '[',
  bracketright: ']',
}
const aliases = KEY_ALIASES as Record<string, string>
for (let n = 1; n <= 24; n++) aliases[`f${n}`] = `F${n}`
// The keypad, as X (KP_0, KP_Enter: what Claude's computer tool sends) and Playwright (Numpad0) name it.
for (let n = 0; n <= 9; n++) aliases[`kp${n}`] = aliases[`numpad${n}`] = `Numpad${n}`
for (const [x, name] of Object.entries({ enter: 'Enter', add: 'Add', subtract: 'Subtract', multiply: 'Multiply', divide: 'Divide', decimal: 'Decimal' })) {
  aliases[`kp${x}`] = aliases[`numpad${x}`] = `Numpad${name}`
}
// X keysym names of punctuation, so xdotool-style chords ("shift+apostrophe") resolve too.
const X_PUNCTUATION: Record<string, string> = {
  apostrophe: "'",
  grave: '`',
  exclam: '!',
  at: '@',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  asciicircum: '^',
  ampersand: '&',
  asterisk: '*',
  parenleft: '(',
  parenright: ')',
  underscore: '_',
  braceleft: '{',
  braceright: '}',
  bar: '|',
  colon: ':',
  quotedbl: '"',
  less: '<',
  greater: '>',
  question: '?',
  asciitilde: '~',
  isolevel3shift: 'AltGraph',
  superl: 'Meta',
  controll: 'Control',
  shiftl: 'Shift',
  altl: 'Alt',
}
Object.assign(aliases, X_PUNCTUATION)

/** The canonical name of a key; single characters are their own name. Throws on unknown names. */
export function canonicalKey(key: string): string {
  if ([...key].length === 1) return key
  const canonical = KEY_ALIASES[key.toLowerCase().replaceAll(/[\s_-]/g, '')]
  if (canonical) return canonical
  throw new Error(`unknown key "${key}"`)
}
