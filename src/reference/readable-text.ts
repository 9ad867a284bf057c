/**
 * Runs in the page (Playwright sends this function's source, so it calls no helper and declares
 * no inner function): the text each root shows a reader. Parts hidden from everyone
 * (display:none, visibility:hidden) and decoration marked aria-hidden inside the root are left
 * out; a visually hidden reading (Omnizon's price "$129.97" beside its styled "$ 129 97") and an
 * image's label (role="img" stars) stand in for what they describe. innerText would give both the
 * reading and the decoration: "$129.97$12997". A root that is itself aria-hidden is read as asked.
 */
export function readableTexts(roots: Element | Element[]): string[] {
  const texts: string[] = []
  for (const root of Array.isArray(roots) ? roots : [roots]) {
    let out = ''
    const stack: Array<Node | string> = [root]
    while (stack.length > 0) {
      const item = stack.pop()!
      if (typeof item === 'string') {
        out += item
        continue
      }
      if (item.nodeType === Node.TEXT_NODE) {
        out += (item.textContent ?? '').replace(/\s+/g, ' ')
        continue
      }
      if (!(item instanceof Element)) continue
      if (item !== root && item.getAttribute('aria-hidden') === 'true') continue
      const style = getComputedStyle(item)
      if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') continue
      if (item.tagName === 'BR') {
        out += '\n'
        continue
      }
      // Blocks and rows are lines, cells are words, inline parts run together as on screen.
      const gap = style.display.startsWith('inline') ? '' : style.display === 'table-cell' ? ' ' : '\n'
      const label = item.getAttribute('aria-label')
      if (item.getAttribute('role') === 'img' && label) {
        out += ` ${label} `
        continue
      }
      out += gap
      stack.push(gap)
      for (let i = item.childNodes.length - 1; i >= 0; i--) stack.push(item.childNodes[i]!)
    }
    const lines = out.split('\n').map((line) => line.replace(/\s+/g, ' ').trim())
    texts.push(lines.filter((line) => line !== '').join('\n'))
  }
  return texts
}

/** Every dollar amount written in `text` ("$1,119.99", "$48"), in dollars. */
export function dollarAmounts(text: string): number[] {
  const matches = text.match(/\$\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?(?!\d)/g) ?? []
  return matches.map((amount) => Number(amount.replace(/[$,\s]/g, '')))
}
