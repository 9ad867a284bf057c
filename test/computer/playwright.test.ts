import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type BrowserContext } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAVIGATION_START_MS, PlaywrightComputer } from '../../src/computer/playwright.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/find-browser.ts'

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
