import { createHash } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BrowserSandbox } from '../../src/sandbox/browser/browser-sandbox.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'
import { BrowserConfig } from '../../src/schema/config.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { BlockedUrlError, RecordingComputer } from '../../src/trajectory/recording-computer.ts'

/** A script's end tag inside a script's string. */
const END = '<\\/script>'
/** A 1×1 PNG. */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

/** A picture the clone lets the browser keep for an hour. */
const SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'

/** Where a page reports what became of its attempts to read the grader's state. */
const REPORT = "(what) => { document.title += what + '|' }"

interface TestServer {
  origin: string
  port: number
  /** Paths of the HTTP requests it answered. */
  hits: string[]
  /** Paths of the WebSocket handshakes it accepted. */
  sockets: string[]
  /** TCP connections it was opened, for any purpose. */
  connections(): number
  close(): void
}

/** An HTTP server on 127.0.0.1 that also accepts WebSockets (and greets each with "hi"). */
async function serve(pages: (origin: string, port: number) => Record<string, string> = () => ({})): Promise<TestServer> {
  const hits: string[] = []
  const sockets: string[] = []
  let table: Record<string, string> = {}
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    if (req.url?.endsWith('.svg')) {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' }).end(SQUARE)
      return
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(table[req.url ?? ''] ?? `<p>${req.url}</p>`)
  })
  server.on('upgrade', (req, socket) => {
    sockets.push(req.url ?? '')
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64')
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
    socket.write(Buffer.from([0x81, 2, 0x68, 0x69]))
    socket.on('error', () => undefined)
  })
  let connections = 0
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  table = pages(origin, port)
  return {
    origin,
    port,
    hits,
    sockets,
    connections: () => connections,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

/** What an adversary would put on a page, were the clone's pages theirs to write. */
function clonePages(other: number) {
  return (origin: string, port: number): Record<string, string> => ({
    '/': '<p style="height:2000px">the clone</p>',
    '/finish': '{"graded": true}',
    '/data-link': `<a id=go href="data:text/html,<script>new Image().src='${origin}/marker-data-link'${END}" style="display:block;height:60px">go</a>`,
    '/blob-link': `<body style="margin:0"><a id=go style="display:block;height:60px">go</a><script>
      go.href = URL.createObjectURL(new Blob(["<p>blob</p><script>new Image().src='${origin}/marker-blob'${END}"], { type: 'text/html' }))
    </script>`,
    '/data-iframe': `<iframe id=f></iframe><script>
      f.src = "data:text/html,<script>new Image().src='${origin}/marker-iframe'${END}"
    </script>`,
    '/socket-out': `<script>
      const s = new WebSocket('ws://127.0.0.1:${other}/exfil')
      s.onopen = () => { document.title = 'open' }
      s.onclose = () => { document.title = 'closed' }
    </script>`,
    '/socket-home': `<script>
      const s = new WebSocket('ws://127.0.0.1:${port}/live')
      s.onmessage = (event) => { document.title = 'open:' + event.data }
    </script>`,
    '/worker-sockets': `<script>
      const code = "for (const url of ['ws://127.0.0.1:${other}/from-worker', 'wss://127.0.0.1:${other}/from-worker-tls', 'ws://127.0.0.1:${port}/worker-home']) {" +
        " const s = new WebSocket(url); s.onopen = () => postMessage('open ' + url); s.onerror = () => postMessage('error ' + url) }"
      const worker = new Worker(URL.createObjectURL(new Blob([code])))
      worker.onmessage = (event) => { document.title += event.data + '|' }
    </script>`,
    '/image': `<img id=pixel src="${PIXEL}"><div id=bg style="width:10px;height:10px;background:url('${PIXEL}')"></div>`,
    '/offsite-link': `<body style="margin:0"><a href="http://127.0.0.1:${other}/elsewhere" style="display:block;height:60px">elsewhere</a>`,
    '/picture': '<img id=square src="/square.svg">',
    // Every way a page has to reach the grader's endpoint: fetch, a Worker's fetch and WebSocket,
    // and a popup opened at it.
    '/peek': `<script>
      const report = ${REPORT}
      const read = (how, init) => fetch('${origin}/finish', init).then((r) => r.text()).then((t) => report(how + (t.includes('graded') ? ' read' : ' refused')), () => report(how + ' refused'))
      read('fetch')
      fetch('${origin}/%66inish').then((r) => report(r.ok ? 'escaped fetched' : 'escaped refused'), () => report('escaped refused'))
      const worker = new Worker(URL.createObjectURL(new Blob(["fetch('${origin}/finish').then((r) => r.text()).then((t) => postMessage(t.includes('graded') ? 'worker read' : 'worker refused'), () => postMessage('worker refused'))"])))
      worker.onmessage = (event) => report(event.data)
      const sockets = new Worker(URL.createObjectURL(new Blob(["const s = new WebSocket('ws://127.0.0.1:${port}/finish'); s.onopen = () => postMessage('socket open'); s.onerror = () => postMessage('socket refused')"])))
      sockets.onmessage = (event) => report(event.data)
      window.open('${origin}/finish')
    </script>`,
  })
}

describe('the browser sandbox keeps an adversary agent on the clone', () => {
  let browser: Browser
  let other: TestServer
  let clone: TestServer
  let sandbox: BrowserSandbox | null = null

  beforeAll(async () => {
    other = await serve()
    clone = await serve(clonePages(other.port))
    browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  }, 30_000)

  afterEach(async () => {
    await sandbox?.close()
    sandbox = null
  })

  afterAll(async () => {
    await browser?.close()
    clone?.close()
    other?.close()
  })

  async function open(path = '/', allowHosts: string[] = []): Promise<BrowserSandbox> {
    sandbox = await BrowserSandbox.open({
      browser,
      config: BrowserConfig.parse({ viewport: { width: 800, height: 600 } }),
      origins: [clone.origin],
      allowHosts,
      blocklist: [`${clone.origin}/finish`],
    })
    await sandbox.computer.goto(`${clone.origin}${path}`)
    return sandbox
  }

  /** Gives a script that would run (a marker image, a socket) time to show itself. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500))

  it('(a) goto a data: page with a script: refused before navigating, nothing runs, recorded', async () => {
    const { computer, violations } = await open()
    const page = `data:text/html,<script>new Image().src='${clone.origin}/marker-goto'</script>`
    await expect(computer.goto(page)).rejects.toThrow(/^goto refused: data:text\/html/)
    await settle()
    expect(clone.hits).not.toContain('/marker-goto')
    expect(await computer.currentUrl()).toBe(`${clone.origin}/`)
    expect(violations).toEqual([page])
  })

  it('(b) goto javascript: and file:///etc/passwd: refused and recorded', async () => {
    const { computer, violations } = await open()
    await expect(computer.goto(`javascript:new Image().src='${clone.origin}/marker-js'`)).rejects.toThrow(/^goto refused: javascript:/)
    await expect(computer.goto('file:///etc/passwd')).rejects.toThrow(/^goto refused: file:/)
    await expect(computer.goto('  JAVA\tSCRIPT:void 0')).rejects.toThrow(/^goto refused/)
    await settle()
    expect(clone.hits).not.toContain('/marker-js')
    expect(await computer.currentUrl()).toBe(`${clone.origin}/`)
    expect(violations).toEqual([`javascript:new Image().src='${clone.origin}/marker-js'`, 'file:///etc/passwd', '  JAVA\tSCRIPT:void 0'])
  })

  it('(c) a clicked blob: link and a data: iframe are stopped before their scripts run, and recorded', async () => {
    const { computer, violations } = await open('/blob-link')
    await computer.click(30, 30)
    await expect.poll(() => violations).toEqual([expect.stringMatching(/^blob:http:\/\/127\.0\.0\.1:\d+\//)])

    await computer.goto(`${clone.origin}/data-iframe`)
    await expect.poll(() => violations).toHaveLength(2)
    expect(violations[1]).toMatch(/^data:text\/html,<script>/)
    await settle()
    expect(clone.hits).not.toContain('/marker-blob')
    expect(clone.hits).not.toContain('/marker-iframe')
  })

  it('(c) a data: link that would open at the top: Chromium refuses it, and nothing runs', async () => {
    const { computer, violations } = await open('/data-link')
    await computer.click(30, 30)
    await settle()
    expect(clone.hits).not.toContain('/marker-data-link')
    expect(await computer.currentUrl()).toBe(`${clone.origin}/data-link`)
    // Nothing left the page, so there is nothing to record.
    expect(violations).toEqual([])
  })

  it('(d) a page opening a WebSocket to another server: no connection is made, and it is recorded', async () => {
    const { computer, violations } = await open('/socket-out')
    await expect.poll(() => computer.page.title()).toBe('closed')
    await settle()
    expect(other.connections()).toBe(0)
    expect(violations).toEqual([`ws://127.0.0.1:${other.port}/exfil`])
  })

  it('(d) sockets from a Worker (which routeWebSocket does not see) are refused by the proxy; a ws: one is recorded', async () => {
    const { computer, violations } = await open('/worker-sockets')
    await expect.poll(async () => (await computer.page.title()).split('|').filter(Boolean).sort()).toEqual([
      `error ws://127.0.0.1:${other.port}/from-worker`,
      `error wss://127.0.0.1:${other.port}/from-worker-tls`,
      `open ws://127.0.0.1:${clone.port}/worker-home`,
    ])
    expect(other.connections()).toBe(0)
    expect(clone.sockets).toContain('/worker-home')
    // An encrypted one cannot be told from the browser's own services, so it is refused quietly.
    expect(violations).toEqual([`ws://127.0.0.1:${other.port}/from-worker`])
  })

  it("(e) a WebSocket to the clone's own origin still connects", async () => {
    const { computer, violations } = await open('/socket-home')
    await expect.poll(() => computer.page.title()).toBe('open:hi')
    expect(clone.sockets).toContain('/live')
    expect(violations).toEqual([])
  })

  it('(f) a data: image inside a clone page still loads', async () => {
    const { computer, violations } = await open('/image')
    const width = await computer.page.locator('#pixel').evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)
    expect(width).toBe(1)
    expect(await computer.page.locator('#bg').evaluate((div) => getComputedStyle(div).backgroundImage)).toMatch(/^url\("data:image\/png/)
    expect(violations).toEqual([])
  })

  it('a link to another host is still refused quietly, and the harness still reaches the clone', async () => {
    const { computer, context, violations } = await open('/offsite-link')
    await computer.click(30, 30)
    await settle()
    expect(other.connections()).toBe(0)
    expect(violations).toEqual([])
    // The grader's endpoints are the harness's: its own requests pass (tunnelled through the context's proxy).
    const finish = await context.request.get(`${clone.origin}/finish`)
    expect(await finish.text()).toBe('{"graded": true}')
    expect(violations).toEqual([])
  })

  // The proxy judges every request when the clones are plain http and no other host is allowed;
  // otherwise (here: an allowed host) Playwright's request routing does. Both must hold.
  for (const [mode, allowHosts] of [['judged by the proxy', []], ['judged by request routing', ['allowed.invalid']]] as const) {
    it(`(g) ${mode}: no page reaches the grading endpoint, by fetch (its path escaped too), a Worker's fetch or WebSocket, or a popup; each try is recorded`, async () => {
      const before = clone.hits.length
      const { context, violations } = await open('/peek', [...allowHosts])
      // The popup becomes the computer's page once it opens: the reports are on the first one.
      const [peek] = context.pages()
      await expect.poll(async () => (await peek!.title()).split('|').filter(Boolean).sort()).toEqual(['escaped refused', 'fetch refused', 'socket refused', 'worker refused'])
      await expect.poll(() => context.pages().length).toBe(2)
      await settle()
      expect(clone.hits.slice(before)).not.toContain('/finish')
      // A server may decode `/%66inish` to `/finish`: the escaped spelling is blocked too.
      expect(clone.hits.slice(before)).not.toContain('/%66inish')
      expect(clone.sockets).not.toContain('/finish')
      expect(violations.sort()).toEqual([`${clone.origin}/%66inish`, `${clone.origin}/finish`, `ws://127.0.0.1:${clone.port}/finish`])
    })
  }

  it('(h) the browser keeps its cache: a picture the clone lets it keep is fetched once per context', async () => {
    const count = () => clone.hits.filter((hit) => hit === '/square.svg').length
    const before = count()
    const { computer } = await open('/picture')
    await computer.goto(`${clone.origin}/`)
    await computer.goto(`${clone.origin}/picture`)
    expect(await computer.page.locator('#square').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(10)
    expect(count() - before).toBe(1)
  })

  it('through the recorded computer, a data: goto ends the task as a blocklisted URL does', async () => {
    const { computer, violations } = await open()
    const recorder = new Recorder(mkdtempSync(join(tmpdir(), 'agentest-policy-')), 'task-1', null)
    const recorded = new RecordingComputer(computer, recorder, {
      maxSteps: 5,
      signal: new AbortController().signal,
      violations: () => violations,
    })
    const error = await recorded.goto!('data:text/html,<h1>mine</h1>').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BlockedUrlError)
    expect((error as Error).message).toBe('the page tried to load a blocked URL: data:text/html,<h1>mine</h1>')
    expect(recorder.steps).toHaveLength(1)
    expect(recorder.steps[0]?.error).toMatch(/^goto refused: data:/)
  })
})
