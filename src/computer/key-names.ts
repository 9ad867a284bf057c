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
for (let n = 1; n <= 24; n++) (KEY_ALIASES as Record<string, string>)[`f${n}`] = `F${n}`

/** The canonical name of a key; single characters are their own name. Throws on unknown names. */
export function canonicalKey(key: string): string {
  if ([...key].length === 1) return key
  const canonical = KEY_ALIASES[key.toLowerCase().replaceAll(/[\s_-]/g, '')]
  if (canonical) return canonical
  throw new Error(`unknown key "${key}"`)
}
