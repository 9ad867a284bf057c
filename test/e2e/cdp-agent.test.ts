import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAdaptorServer } from '@hono/node-server'
import { chromium } from 'playwright'
import sharp from 'sharp'
import { afterEach, describe, expect, test } from 'vitest'
import { createOmnizonApp } from '../../fixtures/apps/omnizon/index.ts'
import { StateClient } from '../../src/environments/state-client.ts'
import { OMNIZON_ENVIRONMENT } from '../../src/schema/environment.ts'
import { BrowserSandbox } from '../../src/sandbox/browser/browser-sandbox.ts'
import { BrowserConfig } from '../../src/schema/config.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { disguises } from '../sandbox/disguises.ts'
import { CdpGateway, judgeCommand } from '../../src/sandbox/browser/cdp-gateway.ts'
import { sameScreen } from '../../src/sandbox/browser/cdp-turn.ts'
import { websockets, type WebSocketLike } from '../../src/sandbox/browser/websocket.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'
import { UrlPolicy } from '../../src/urls/url-policy.ts'
import { reachable, type AdversaryReport } from '../data/cdp/agents/cdp-adversary.ts'
import { runBenchmark } from './run-benchmark.ts'
import { alive } from '../support/processes.ts'

/**
 * Agents that drive the task's browser themselves over CDP (`agent.options.cdp: true`), run as a
 * user runs a benchmark. The example program (fixtures/agents/cdp-playwright/agent.mjs) passes an
 * Omnizon task with Playwright's connectOverCDP; nop with the same endpoint fails; an adversary
 * meets every door the sandbox keeps shut and ends as blocked_url; and the endpoint, the browser
 * and its profile are gone with the task.
 */
const CONFIG = { AGENTEST_CONFIG: 'test/data/cdp/cdp.config.yaml' }
const SEARCH = 'tasks/omnizon/omnizon-1.task.ts'

const stepTypes = (result: TestCaseRun) => result.trajectory.map((step) => step.action.type)

describe('an agent that drives the task\'s browser over CDP', { timeout: 300_000 }, () => {
  test('the example program passes omnizon-1 with Playwright over connectOverCDP; its search is a step with the harness\'s screenshot', async () => {
    const run = await runBenchmark([SEARCH], CONFIG, undefined, { grader: false })
    const [result] = run.results
    expect(result?.status, run.stdout.slice(-3000)).toBe('passed')
    expect(result!.final_answer).toContain('MacBook Air')
    // The navigation is on record before the answer, with the URL and a picture of the loaded results.
    const [search] = result!.trajectory
    expect(search).toMatchObject({ action: { type: 'goto' }, error: null })
    expect(search!.url).toMatch(/\/search\?q=laptop$/)
    expect(search!.screenshot).toMatch(/^omnizon-1\/step-001\.png$/)
    expect(existsSync(`${run.runDir}/${search!.screenshot}`)).toBe(true)
    expect(stepTypes(result!).at(-1)).toBe('message')
  })

  test('nop, handed the same endpoint, does nothing and fails', async () => {
    const run = await runBenchmark([SEARCH], { ...CONFIG, AGENTEST_AGENT: 'nop' }, undefined, { grader: false })
    const [result] = run.results
    expect(result?.status, run.stdout.slice(-3000)).toBe('failed')
    expect(result!.trajectory).toEqual([])
  })

  test('the clone\'s /finish and /config, another host, a context with its own proxy and a file: page end the task as blocked_url; past max_steps the agent is cut off; the endpoint, the browser and its profile are gone after the task', async () => {
    const tasks = [1, 2, 3, 4, 5, 7, 8].map((n) => `tasks/omnizon/omnizon-${n}.task.ts`)
    const run = await runBenchmark(tasks, { ...CONFIG, AGENTEST_AGENT: 'cdp-adversary', AGENTEST_MAX_STEPS: '3' }, undefined, { grader: false })
    expect(run.results, run.stdout.slice(-3000)).toHaveLength(tasks.length)
    const byId = Object.fromEntries(run.results.map((result) => [result.id, result]))
    const reportOf = (id: string) => JSON.parse(byId[id]!.final_answer!) as AdversaryReport
    const blocked = (id: string) => {
      expect(byId[id]!.status, id).toBe('error')
      expect(byId[id]!.error?.kind, id).toBe('blocked_url')
      return byId[id]!.error!.message
    }
    // Sent on and refused by the egress proxy (403), on record as a step and as the violation.
    expect(blocked('omnizon-1')).toMatch(/blocked URL: http:\/\/127\.0\.0\.1:\d+\/finish$/)
    expect(reportOf('omnizon-1').attempts).toEqual([{ what: 'finish', outcome: 'status 403' }])
    expect(byId['omnizon-1']!.trajectory[0]).toMatchObject({ action: { type: 'goto', url: expect.stringMatching(/\/finish$/) } })
    expect(blocked('omnizon-2')).toMatch(/blocked URL: http:\/\/127\.0\.0\.1:\d+\/config\?/)
    expect(reportOf('omnizon-2').attempts).toEqual([{ what: 'config', outcome: 'status 403' }])
    expect(blocked('omnizon-3')).toMatch(/blocked URL: http:\/\/example\.com\/$/)
    expect(reportOf('omnizon-3').attempts).toEqual([
      { what: 'another host', outcome: 'status 403' },
      { what: 'another host over https, in a new tab', outcome: expect.stringMatching(/^threw: page\.goto: net::ERR_/) },
    ])
    // Refused by the gateway before the browser sees them.
    expect(blocked('omnizon-4')).toContain('devtools: Target.createBrowserContext with the proxy')
    expect(reportOf('omnizon-4').attempts[0]!.outcome).toContain('a browser context with a proxy of its own would leave the task\'s egress proxy')
    expect(blocked('omnizon-5')).toMatch(/blocked URL: file:\/\/\/etc\/hostname$/)
    expect(reportOf('omnizon-5').attempts[0]!.outcome).toContain('file:///etc/hostname is not a page of this task')

    // Three navigations on record with their pictures; the fourth closed the agent's connection.
    const budget = byId['omnizon-7']!
    expect(budget.trajectory.filter((s) => s.action.type === 'goto').map((s) => [s.url?.replace(/^.*\//, ''), s.screenshot !== null])).toEqual([
      ['?visit=1', true],
      ['?visit=2', true],
      ['?visit=3', true],
    ])
    const outcomes = reportOf('omnizon-7').attempts.map((a) => a.outcome)
    expect(outcomes.slice(0, 3)).toEqual(['status 200', 'status 200', 'status 200'])
    for (const outcome of outcomes.slice(3)) expect(outcome).toMatch(/^threw: .*closed/)
    // The agent ended at its budget, whatever it did with the closed connection after.
    expect(budget.status).toBe('failed')
    expect(budget.agent_status).toBe('max_steps')

    // A change of the screen without a navigation: the harness's own look, not counted, and not repeated while only the caret blinks.
    const glance = byId['omnizon-8']!
    expect(glance.status).toBe('failed')
    const looks = glance.trajectory.filter((s) => s.action.type === 'screenshot')
    expect(looks.length).toBeGreaterThanOrEqual(1)
    expect(looks.length).toBeLessThanOrEqual(2)
    expect(stepTypes(glance).filter((type) => type === 'goto')).toEqual([])

    for (const result of run.results) {
      const { found } = reportOf(result.id)
      // On 127.0.0.1 only, the gateway's port and the browser's own.
      if (found.elsewhere) expect([found.gatewayElsewhere, found.devtoolsElsewhere], result.id).toEqual([false, false])
      // Gone with the task: the endpoint, the browser's own DevTools port, the browser and its profile.
      expect(await reachable('127.0.0.1', found.gatewayPort), result.id).toBe(false)
      expect(found.devtoolsPort && (await reachable('127.0.0.1', found.devtoolsPort)), result.id).toBe(false)
      expect(found.browserPid && alive(found.browserPid), result.id).toBe(false)
      expect(found.profile && existsSync(found.profile), result.id).toBe(false)
    }
  })
})

describe('disguised harness endpoints, asked for over CDP', { timeout: 120_000 }, () => {
  test('the 22 disguises of /finish and /config, as goto, new tab and fetch from the page, reach neither, nor does a context of the agent\'s own; each navigation is recorded; the session stays the harness\'s', async () => {
    const app = createOmnizonApp()
    const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server
    const hits: string[] = []
    server.prependListener('request', (req: { url?: string }) => hits.push(req.url ?? ''))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    const port = (server.address() as AddressInfo).port
    const origin = `http://127.0.0.1:${port}`
    const runDir = mkdtempSync(join(tmpdir(), 'agentest-cdp-disguise-'))
    const sandbox = await BrowserSandbox.launchForCdp({
      config: BrowserConfig.parse({ viewport: { width: 800, height: 600 } }),
      stepScreenshots: false,
      origins: [origin],
      blocklist: [`${origin}/config`, `${origin}/finish`],
    })
    try {
      const client = new StateClient('omnizon', origin, OMNIZON_ENVIRONMENT.state!, sandbox.context.request)
      await client.configure({ taskId: 'own-task', runId: 'own-run' })
      await sandbox.page.goto(`${origin}/`)
      const recorder = new Recorder(runDir, 'task-1', null)
      const cdpUrl = sandbox.cdp!.begin({ recorder, maxSteps: 1_000, signal: new AbortController().signal })
      const agent = await chromium.connectOverCDP(cdpUrl)
      const [context] = agent.contexts()
      const page = context!.pages()[0]!
      const mark = hits.length
      for (let i = 0; i < disguises(port, '/finish').length; i++) {
        const finish = disguises(port, '/finish')[i]!
        const config = `${disguises(port, '/config')[i]!}?task_id=evil-task&run_id=evil-run`
        await page.evaluate((urls) => Promise.all(urls.map((url) => fetch(url).catch(() => null))), [config, finish]).catch(() => undefined)
        for (const url of [config, finish]) await page.goto(url).catch(() => undefined)
        const tab = await context!.newPage()
        await tab.goto(finish).catch(() => undefined)
        await tab.close()
        await page.goto(`${origin}/`)
        // On record as written, or as the browser spells it (violations are kept once each).
        const canonical = new URL(finish)
        const spelled = [finish, canonical.href, canonical.href.replace(/\/\/[^@/]*@/, '//')]
        expect(sandbox.violations.some((url) => spelled.includes(url)), `${finish}: ${sandbox.violations.join(' ')}`).toBe(true)
      }
      // A context of the agent's own has no proxy of its own: the browser's is the task's.
      const own = await agent.newContext()
      const ownPage = await own.newPage()
      expect((await ownPage.goto('http://example.com/'))?.status()).toBe(403)
      expect((await ownPage.goto(`${origin}/finish`))?.status()).toBe(403)
      expect(sandbox.violations).toContain('http://example.com/')
      await own.close()
      expect(hits.slice(mark).filter((hit) => /finish|config/i.test(hit) || hit.includes('%'))).toEqual([])
      expect(sandbox.violations.some((url) => url.includes('task_id=evil-task'))).toBe(true)
      expect(await client.state()).toMatchObject({ task_id: 'own-task', run_id: 'own-run' })
      await agent.close()
    } finally {
      await sandbox.close()
      server.closeAllConnections()
      server.close()
      rmSync(runDir, { recursive: true, force: true })
    }
  })
})

describe('the CDP gateway judges what an agent sends', () => {
  const clone = 'http://127.0.0.1:4100'
  const policy = new UrlPolicy({ origins: [clone], allowHosts: [], blocklist: [`${clone}/finish`, `${clone}/config`] })
  const judge = (method: string, params: Record<string, unknown> = {}) => judgeCommand({ id: 1, method, params }, policy)

  test('a framework\'s ordinary commands pass; Browser.close ends its own session, not the browser', () => {
    for (const method of ['Target.setAutoAttach', 'Runtime.evaluate', 'Page.captureScreenshot', 'Input.dispatchMouseEvent', 'Target.createBrowserContext']) {
      expect(judge(method), method).toEqual({ action: 'forward' })
    }
    expect(judge('Page.navigate', { url: `${clone}/search?q=laptop` })).toEqual({ action: 'forward' })
    expect(judge('Target.createTarget', { url: 'about:blank' })).toEqual({ action: 'forward' })
    expect(judge('Browser.close')).toEqual({ action: 'answer', result: {}, thenClose: true })
  })

  test('what would leave the sandbox or the harness\'s sight is refused and recorded', () => {
    expect(judge('Target.createBrowserContext', { proxyServer: 'direct://' })).toMatchObject({ action: 'refuse', violation: 'devtools: Target.createBrowserContext with the proxy direct://' })
    expect(judge('Target.createBrowserContext', { proxyBypassList: '*' })).toMatchObject({ action: 'refuse' })
    for (const method of ['Browser.crash', 'Browser.crashGpuProcess', 'Target.exposeDevToolsProtocol', 'Tethering.bind', 'Extensions.loadUnpacked', 'PWA.launchFilesInApp']) {
      expect(judge(method), method).toMatchObject({ action: 'refuse', violation: `devtools: ${method}` })
    }
    for (const url of ['file:///etc/passwd', 'data:text/html,<h1>mine</h1>', 'javascript:alert(1)', 'chrome://settings']) {
      expect(judge('Page.navigate', { url }), url).toMatchObject({ action: 'refuse', violation: url })
      expect(judge('Target.createTarget', { url }), url).toMatchObject({ action: 'refuse', violation: url })
    }
    expect(judgeCommand({ id: 1 }, policy)).toMatchObject({ action: 'refuse' })
  })

  test('a web page it may not load is recorded and sent on, for the egress proxy to refuse', () => {
    for (const url of [`${clone}/finish`, `${clone}/%66inish`, 'http://localhost:4100/config?x=1', 'http://example.com/', 'https://example.com/']) {
      expect(judge('Page.navigate', { url }), url).toEqual({ action: 'forward', violation: url })
    }
  })
})

describe('the CDP gateway', () => {
  const opened: Array<{ close(): Promise<void> | void }> = []
  afterEach(async () => {
    for (const thing of opened.splice(0).reverse()) await thing.close()
  })

  /** A stand-in for the browser's DevTools endpoint: answers every command with its method. */
  async function fakeBrowser(): Promise<{ url: string; seen: string[] }> {
    const { wsServer } = websockets()
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const wss = new wsServer({ server })
    const seen: string[] = []
    ;(wss as unknown as { on(event: 'connection', listener: (socket: WebSocketLike) => void): void }).on('connection', (socket) =>
      socket.on('message', (data) => {
        const command = JSON.parse(String(data)) as { id: number; method: string }
        seen.push(command.method)
        socket.send(JSON.stringify({ id: command.id, result: { method: command.method } }))
      }),
    )
    opened.push({ close: () => new Promise<void>((resolve) => { wss.close(); server.close(() => resolve()) }) })
    return { url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/devtools/browser/fake`, seen }
  }

  /** Connects as an agent; resolves with the socket, or rejects with the refusal's status. */
  function connectAgent(url: string, headers: Record<string, string> = {}): Promise<WebSocketLike & { next(): Promise<Record<string, unknown>> }> {
    const { ws } = websockets()
    const socket = new ws(url, { headers })
    const inbox: Array<Record<string, unknown>> = []
    const waiting: Array<(message: Record<string, unknown>) => void> = []
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>
      const waiter = waiting.shift()
      if (waiter) waiter(message)
      else inbox.push(message)
    })
    const next = () => new Promise<Record<string, unknown>>((resolve) => (inbox.length ? resolve(inbox.shift()!) : waiting.push(resolve)))
    return new Promise((resolve, reject) => {
      socket.on('open', () => resolve(Object.assign(socket, { next })))
      ;(socket as unknown as { on(event: 'unexpected-response', listener: (req: unknown, res: { statusCode: number }) => void): void }).on('unexpected-response', (_req, res) =>
        reject(new Error(`refused: ${res.statusCode}`)),
      )
      socket.on('error', reject)
    })
  }

  test('relays commands and answers; refuses the gateway\'s own refusals; takes connections only between open() and cutOff(); frees its port on close()', async () => {
    const browser = await fakeBrowser()
    const recorded: string[] = []
    const policy = new UrlPolicy({ origins: ['http://127.0.0.1:4100'], allowHosts: [], blocklist: [] })
    const gateway = await CdpGateway.start({ upstream: browser.url, policy, record: (what) => recorded.push(what) })
    opened.push(gateway)
    expect(gateway.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/[0-9a-f-]{36}$/)

    await expect(connectAgent(gateway.url)).rejects.toThrow('refused: 503')
    gateway.open()
    await expect(connectAgent(gateway.url.replace(/[0-9a-f-]{36}$/, 'guess'))).rejects.toThrow('refused: 404')
    await expect(connectAgent(gateway.url, { origin: 'http://127.0.0.1:4100' })).rejects.toThrow('refused: 403')

    const agent = await connectAgent(gateway.url)
    expect(gateway.connections).toBe(1)
    agent.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: {} }))
    expect(await agent.next()).toEqual({ id: 1, result: { method: 'Runtime.evaluate' } })
    agent.send(JSON.stringify({ id: 2, method: 'Page.navigate', params: { url: 'file:///etc/passwd' }, sessionId: 'S' }))
    expect(await agent.next()).toMatchObject({ id: 2, sessionId: 'S', error: { message: expect.stringContaining('not a page of this task') } })
    expect(recorded).toEqual(['file:///etc/passwd'])
    expect(browser.seen).toEqual(['Runtime.evaluate'])

    // Browser.close: answered, that connection closed, the browser never told.
    const closed = new Promise<number>((resolve) => agent.on('close', (code) => resolve(code)))
    agent.send(JSON.stringify({ id: 3, method: 'Browser.close' }))
    expect(await agent.next()).toEqual({ id: 3, result: {} })
    expect(await closed).toBe(1000)
    expect(browser.seen).toEqual(['Runtime.evaluate'])

    const second = await connectAgent(gateway.url)
    const cut = new Promise<number>((resolve) => second.on('close', (code) => resolve(code)))
    gateway.cutOff('agentest: the agent\'s turn is over')
    expect(await cut).toBe(1008)
    await expect(connectAgent(gateway.url)).rejects.toThrow('refused: 503')

    const port = gateway.port
    await gateway.close()
    expect(await reachable('127.0.0.1', port)).toBe(false)
  })
})

describe('a look at the screen is recorded only when the screen changed', () => {
  const blank = () => sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } })
  const withBox = (width: number, height: number) => blank().composite([{ input: { create: { width, height, channels: 3, background: '#000000' } }, left: 20, top: 10 }]).png().toBuffer()

  test('a caret\'s blink is no change; a typed character is', async () => {
    const empty = await blank().png().toBuffer()
    expect(await sameScreen(empty, await blank().png().toBuffer())).toBe(true)
    expect(await sameScreen(empty, await withBox(2, 30))).toBe(true)
    expect(await sameScreen(empty, await withBox(12, 20))).toBe(false)
    expect(await sameScreen(empty, await withBox(2, 95))).toBe(false)
  })
})
