/**
 * CUA key names (as models send them: "CTRL", "enter", "ArrowDown", "cmd") to Playwright's
 * key names. Lookup is case-insensitive; single characters pass through unchanged.
 */
const PLAYWRIGHT_KEYS: Record<string, string> = {
  alt: 'Alt',
  option: 'Alt',
  altgr: 'AltGraph',
  ctrl: 'Control',
  control: 'Control',
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
  pause: 'Pause',
  contextmenu: 'ContextMenu',
  menu: 'ContextMenu',
  minus: 'Minus',
  plus: 'Equal',
  equal: 'Equal',
  comma: 'Comma',
  period: 'Period',
  semicolon: 'Semicolon',
  quote: 'Quote',
  backquote: 'Backquote',
  bracketleft: 'BracketLeft',
  bracketright: 'BracketRight',
}
for (let n = 1; n <= 24; n++) PLAYWRIGHT_KEYS[`f${n}`] = `F${n}`

/** Maps one CUA key name to a Playwright key; throws on names it cannot place. */
export function toPlaywrightKey(key: string): string {
  if (key.length === 1) return key
  const mapped = PLAYWRIGHT_KEYS[key.toLowerCase().replaceAll(/[\s_-]/g, '')]
  if (mapped) return mapped
  throw new Error(`unknown key "${key}"`)
}
