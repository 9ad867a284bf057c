import type { Computer } from './computer.ts'

/**
 * The Computer an agent receives: the protocol's methods as closures over the recorded one, in
 * a frozen plain object. Nothing behind it (the recorder, the Playwright page and context, the
 * container) is a property, a prototype or a getter away, so an agent can only act as a person
 * at the screen would: one recorded, budgeted step at a time.
 */
export function sealComputer(computer: Computer): Computer {
  const sealed: Computer = {
    environment: computer.environment,
    dimensions: Object.freeze({ width: computer.dimensions.width, height: computer.dimensions.height }),
    screenshot: () => computer.screenshot(),
    click: (x, y, button, keys) => computer.click(x, y, button, keys),
    doubleClick: (x, y, keys) => computer.doubleClick(x, y, keys),
    tripleClick: (x, y, keys) => computer.tripleClick(x, y, keys),
    scroll: (x, y, scrollX, scrollY, keys) => computer.scroll(x, y, scrollX, scrollY, keys),
    mouseDown: (button) => computer.mouseDown(button),
    mouseUp: (button) => computer.mouseUp(button),
    type: (text) => computer.type(text),
    wait: (ms) => computer.wait(ms),
    move: (x, y) => computer.move(x, y),
    keypress: (keys) => computer.keypress(keys),
    holdKey: (keys, ms) => computer.holdKey(keys, ms),
    drag: (path) => computer.drag(path),
    cursorPosition: () => computer.cursorPosition(),
    currentUrl: () => computer.currentUrl(),
  }
  // The browser-only extras exist exactly when the sandbox has them, as agents test for them.
  const { accessibilityTree, goto, back, forward } = computer
  if (accessibilityTree) sealed.accessibilityTree = () => accessibilityTree()
  if (goto) sealed.goto = (url) => goto(url)
  if (back) sealed.back = () => back()
  if (forward) sealed.forward = () => forward()
  return Object.freeze(sealed)
}
