import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type BrowserContext } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAVIGATION_START_MS, PlaywrightComputer } from '../../src/computer/playwright.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'

// A form that posts and is redirected (as Omnizon's cart and order forms are), a field whose
// Enter submits it, and a form whose answer is "no content", so the page stays.
const PAGE = `<!DOCTYPE html>
<form method="post" action="/go"><button style="width:300px;height:60px">go</button></form>
<form method="get" action="/search"><input name="q" style="width:300px;height:40px"></form>
<form method="post" action="/nothing"><button id="nothing" style="width:300px;height:60px">nothing</button></form>`

function serve(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/go') return res.writeHead(303, { location: '/done' }).end()
    if (req.method === 'POST') return res.writeHead(204).end()
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? PAGE : `<p>${req.url}</p>`)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('the browser computer waits for the navigation an action starts', () => {
  let server: Server
  let browser: Browser
  let origin: string

  beforeAll(async () => {
    server = await serve()
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
    server?.close()
  })

  /** A computer on the test page, its renderer slowed down as on a machine running many tasks. */
  async function slowComputer(): Promise<{ computer: PlaywrightComputer; context: BrowserContext }> {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } })
    const computer = await PlaywrightComputer.open(context)
    await computer.goto(`${origin}/`)
    const cdp = await context.newCDPSession(computer.page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 30 })
    return { computer, context }
  }

  it('a posted form on a slow page: the action returns on the page it was redirected to, loaded', async () => {
    const { computer, context } = await slowComputer()
    await computer.click(100, 30)
    expect(await computer.currentUrl()).toBe(`${origin}/done`)
    expect(await computer.page.evaluate(() => document.readyState)).toBe('complete')
    await context.close()
  })

  it('an Enter in a field on a slow page: the action returns on the results', async () => {
    const { computer, context } = await slowComputer()
    await computer.click(100, 90)
    await computer.type('shoes')
    await computer.keypress(['Return'])
    expect(await computer.currentUrl()).toBe(`${origin}/search?q=shoes`)
    expect(await computer.page.evaluate(() => document.readyState)).toBe('complete')
    await context.close()
  })

  it('a form answered with no content leaves the page as it was, and the next action is not held up', async () => {
    const { computer, context } = await slowComputer()
    await computer.click(100, 140)
    expect(await computer.currentUrl()).toBe(`${origin}/`)
    // A page still marked as being left would hold every later action for seconds.
    const started = Date.now()
    await computer.click(700, 500)
    expect(Date.now() - started).toBeLessThan(NAVIGATION_START_MS)
    await computer.click(100, 30)
    expect(await computer.currentUrl()).toBe(`${origin}/done`)
    await context.close()
  })
})

describe('the browser computer presses, holds and remembers like a person', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
  })

  // Every mouse and key event the page receives, with the modifiers held and the time.
  const LOGGING_PAGE = `<!DOCTYPE html><body style="margin:0;height:3000px">
<p id="para" style="position:absolute;left:20px;top:20px;margin:0">alpha beta gamma</p>
<script>
window.events = []
for (const type of ['mousedown', 'mouseup', 'click', 'wheel', 'keydown', 'keyup']) {
  addEventListener(type, (e) => events.push({ type, x: e.clientX, y: e.clientY, shift: e.shiftKey, ctrl: e.ctrlKey, key: e.key, detail: e.detail, t: performance.now() }))
}
</script>`

  it('held modifiers, a triple click, a drag taken apart, a held key and the pointer', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } })
    const computer = await PlaywrightComputer.open(context)
    await computer.page.setContent(LOGGING_PAGE)
    type Logged = { type: string; x: number; y: number; shift: boolean; ctrl: boolean; key: string; detail: number; t: number }
    const events = () => computer.page.evaluate(() => (window as unknown as { events: Logged[] }).events.splice(0))

    await computer.click(200, 300, 'left', ['SHIFT'])
    expect((await events()).filter((e) => e.type === 'click').map((e) => [e.x, e.y, e.shift])).toEqual([[200, 300, true]])

    await computer.tripleClick(60, 30)
    expect((await events()).filter((e) => e.type === 'click').map((e) => e.detail)).toEqual([1, 2, 3])
    expect(await computer.page.evaluate(() => getSelection()?.toString().trim())).toBe('alpha beta gamma')

    await computer.move(100, 100)
    expect(await computer.cursorPosition()).toEqual({ x: 100, y: 100 })
    await computer.mouseDown()
    await computer.move(150, 160)
    await computer.mouseUp()
    expect(await computer.cursorPosition()).toEqual({ x: 150, y: 160 })
    expect((await events()).filter((e) => e.type.startsWith('mouse')).map((e) => [e.type, e.x, e.y])).toEqual([
      ['mousedown', 100, 100],
      ['mouseup', 150, 160],
    ])

    await computer.scroll(300, 300, 0, 200, ['CTRL'])
    expect((await events()).filter((e) => e.type === 'wheel').map((e) => [e.x, e.y, e.ctrl])).toEqual([[300, 300, true]])

    await computer.holdKey(['SHIFT'], 400)
    const keys = (await events()).filter((e) => e.key === 'Shift')
    expect(keys.map((e) => e.type)).toEqual(['keydown', 'keyup'])
    expect(keys[1]!.t - keys[0]!.t).toBeGreaterThanOrEqual(380)
    // Nothing stays held afterwards: a plain click is a plain click.
    await computer.click(210, 310)
    expect((await events()).filter((e) => e.type === 'click').map((e) => e.shift)).toEqual([false])
    await context.close()
  })
})
