import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser, BrowserContext, BrowserContextOptions, Frame, Page, Request } from 'playwright'
import { PlaywrightComputer } from '../../computer/playwright.ts'
import type { BrowserConfig } from '../../schema/config.ts'
import { SandboxUnavailable } from '../kind.ts'
import { CdpGateway } from './cdp-gateway.ts'
import { CdpTurn } from './cdp-turn.ts'
import { writePlaywrightCodeCache } from './code-cache.ts'
import { EgressGuard } from './egress-guard.ts'
import { chromiumArgs, findBrowser, playwrightChromium } from './find-browser.ts'
import { UrlPolicy } from '../../urls/url-policy.ts'

/**
 * Connects to the run's browser server, or launches a browser of its own. Signals are not
 * Playwright's to act on: on Ctrl-C the tasks in flight still need the browser to finish their
 * records, and the harness closes it after (a killed process takes it along: its pipe closes).
 */
export async function connectBrowser(config: BrowserConfig, endpoint: string | undefined): Promise<Browser> {
  const chromium = playwrightChromium()
  // A CDP endpoint (a browser farm's, a Chromium started with --remote-debugging-port) or a Playwright server's.
  const browser = endpoint
    ? await (/^https?:/.test(endpoint) ? chromium.connectOverCDP(endpoint) : chromium.connect(endpoint)).catch((error: unknown) => {
        // The endpoint is the user's (browser.connect) or the run's own browser server (browser.scope: run).
        const whose = config.connect ? 'browser.connect: cannot reach the browser' : "cannot reach the run's browser server"
        throw new Error(`${whose} at ${endpoint}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
      })
    : await chromium.launch({
        executablePath: findBrowser(config.executable_path, config.headless).executablePath,
        headless: config.headless,
        args: chromiumArgs(),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      })
  writePlaywrightCodeCache()
  return browser
}

export interface BrowserSandboxOptions {
  browser: Browser
  config: BrowserConfig
  /** Origins of the web clones this task may use. */
  origins: string[]
  /** Hosts the task's environment lets its pages load besides its origin (with the browser config's). */
  allowHosts?: string[]
  /** Extra blocklist entries (a clone's harness-only endpoints). */
  blocklist: string[]
}

/** A task's browser of its own, for an agent that drives it over CDP (`BrowserSandbox.launchForCdp`). */
export interface CdpSandboxOptions {
  config: BrowserConfig
  /** false: steps are recorded without screenshots (run.step_screenshots). */
  stepScreenshots: boolean
  /** Origins of the web clones this task may use. */
  origins: string[]
  /** Hosts the task's environment lets its pages load besides its origin (with the browser config's). */
  allowHosts?: string[]
  /** Extra blocklist entries (a clone's harness-only endpoints). */
  blocklist: string[]
}

/** A violation's URL is kept this long: a data: URL can be megabytes. */
const MAX_RECORDED_URL = 200

/** How long a launched browser may take to write the port of its DevTools endpoint. */
const DEVTOOLS_PORT_WAIT_MS = 10_000

/** The context options every task's browser gets, whichever way it is opened. */
function contextOptions(config: BrowserConfig): BrowserContextOptions {
  return {
    viewport: config.viewport,
    screen: config.viewport,
    deviceScaleFactor: 1,
    locale: 'en-US',
    timezoneId: 'UTC',
    // A service worker would answer the pages' requests from outside the routing below.
    serviceWorkers: 'block',
  }
}

/** A task's URL policy and its record of violations, shared by both ways a sandbox opens. */
function confinement(config: BrowserConfig, options: { origins: string[]; allowHosts?: string[]; blocklist: string[] }) {
  const policy = new UrlPolicy({
    origins: options.origins,
    allowHosts: [...config.allow_hosts, ...(options.allowHosts ?? [])],
    blocklist: [...config.blocklist, ...options.blocklist],
  })
  const violations: string[] = []
  const record = (url: string) => {
    const entry = url.length > MAX_RECORDED_URL ? `${url.slice(0, MAX_RECORDED_URL)}…` : url
    if (!violations.includes(entry)) violations.push(entry)
  }
  const mayOpen = (url: string) => {
    if (policy.classifyNavigation(url) !== 'blocked') return true
    record(url)
    return false
  }
  return { policy, violations, record, mayOpen }
}

/**
 * One task's browser: a fresh context (own cookies, storage and clone session) at the configured
 * viewport that stays on the clones. Requests elsewhere are refused quietly; a blocklisted URL,
 * a frame sent to anything but a web page (data:, blob:, javascript:, file:), a WebSocket to
 * anything but a clone, and any connection that slipped past the pages' routing are refused
 * and recorded as violations, and the first one ends the task.
 */
export class BrowserSandbox {
  private constructor(
    readonly context: BrowserContext,
    readonly computer: PlaywrightComputer,
    /** What the task's pages tried to reach and were refused for, in order. */
    readonly violations: string[],
    private readonly guard: EgressGuard,
    /** The agent's turn over CDP, when the task's browser is its own (`launchForCdp`); null otherwise. */
    readonly cdp: CdpTurn | null = null,
    /** What else goes with the sandbox (a launched browser's profile folder). */
    private readonly dispose: () => Promise<void> = async () => undefined,
  ) {}

  static async open(options: BrowserSandboxOptions): Promise<BrowserSandbox> {
    const { browser, config } = options
    const { policy, violations, record, mayOpen } = confinement(config, options)
    // The proxy can judge every request when it sees every URL whole: plain-http clones, no other host.
    const judges = options.origins.every((origin) => new URL(origin).protocol === 'http:') && policy.allowHosts.length === 0
    const guard = await EgressGuard.start(policy, record, { judges, host: config.proxy_host })
    let context: BrowserContext | null = null
    try {
      context = await browser.newContext({ ...contextOptions(config), proxy: guard.proxy })
      await confine(context, policy, record, { routeRequests: !judges, offsiteNavigations: false })
      const computer = await PlaywrightComputer.open(context, { mayOpen })
      return new BrowserSandbox(context, computer, violations, guard)
    } catch (error) {
      await context?.close().catch(() => undefined)
      await guard.close()
      throw error
    }
  }

  /**
   * A task's browser of its own, for an agent that drives it over CDP: launched with the same flags
   * as the run's browsers, its one (persistent) context set up as `open` sets up a task's context,
   * and all of its traffic, any context's and any page's, sent through the task's egress proxy
   * judging every URL (`--proxy-server` for the whole browser: a context cannot choose its own,
   * and the gateway refuses a context that asks for one). Its DevTools endpoint listens on
   * 127.0.0.1 at a port of the system's choosing, read from the profile's DevToolsActivePort; the
   * agent is handed the task's `CdpGateway` in front of it, never the browser's own. Main-frame
   * navigations to another host are violations too, not only blocklisted ones: the agent chose them.
   *
   * The proxy judges every request by its full URL only for plain-http clones, so an `https:`
   * clone cannot be driven over CDP (page routing, which judges https paths, is the agent's to undo).
   */
  static async launchForCdp(options: CdpSandboxOptions): Promise<BrowserSandbox> {
    const { config } = options
    const insecure = options.origins.find((origin) => new URL(origin).protocol !== 'http:')
    if (insecure) throw new SandboxUnavailable(`an agent that drives the browser over CDP needs plain-http web clones, whose every URL the egress proxy can judge; ${insecure} is not one`)
    const { policy, violations, record, mayOpen } = confinement(config, options)
    const guard = await EgressGuard.start(policy, record, { judges: true })
    const profile = await mkdtemp(join(tmpdir(), 'agentest-cdp-'))
    const dispose = () => rm(profile, { recursive: true, force: true, maxRetries: 3 })
    let context: BrowserContext | null = null
    let gateway: CdpGateway | null = null
    try {
      context = await playwrightChromium().launchPersistentContext(profile, {
        ...contextOptions(config),
        executablePath: findBrowser(config.executable_path, config.headless).executablePath,
        headless: config.headless,
        args: [...chromiumArgs(), '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1'],
        // Every host, the allowed ones too, through the proxy: it judges them all by their URL.
        proxy: { server: guard.proxy.server },
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      })
      writePlaywrightCodeCache()
      await confine(context, policy, record, { routeRequests: false, offsiteNavigations: true })
      const launched = context.pages()
      const computer = await PlaywrightComputer.open(context, { mayOpen })
      // The launch's empty tab goes: the agent's first page is the task's.
      for (const page of launched) await page.close().catch(() => undefined)
      gateway = await CdpGateway.start({ upstream: await devtoolsEndpoint(profile), policy, record })
      const turn = new CdpTurn(context, gateway, computer, { stepScreenshots: options.stepScreenshots })
      return new BrowserSandbox(context, computer, violations, guard, turn, dispose)
    } catch (error) {
      await gateway?.close()
      await context?.close().catch(() => undefined)
      await guard.close()
      await dispose().catch(() => undefined)
      throw error
    }
  }

  get page(): Page {
    return this.computer.page
  }

  async close(): Promise<void> {
    await this.cdp?.end().catch(() => undefined)
    await this.cdp?.gateway.close()
    await this.context.close().catch(() => undefined)
    await this.guard.close()
    await this.dispose().catch(() => undefined)
  }
}

/** The browser's own DevTools endpoint, from the DevToolsActivePort file it writes in its profile. */
async function devtoolsEndpoint(profile: string): Promise<string> {
  const deadline = Date.now() + DEVTOOLS_PORT_WAIT_MS
  for (;;) {
    const text = await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '')
    const [port, path] = text.split('\n')
    if (port && /^\d+$/.test(port.trim()) && path?.startsWith('/devtools/browser/')) return `ws://127.0.0.1:${port.trim()}${path.trim()}`
    if (Date.now() > deadline) throw new Error(`the browser wrote no DevTools port in ${DEVTOOLS_PORT_WAIT_MS / 1000} s (${join(profile, 'DevToolsActivePort')})`)
    await sleep(50)
  }
}

/**
 * Puts the policy on every page of the context, before the first one opens. `offsiteNavigations`:
 * a main-frame navigation to another host is a violation too (an agent driving the browser over
 * CDP chose it), not only a blocklisted one; other requests to other hosts stay quietly refused.
 */
async function confine(
  context: BrowserContext,
  policy: UrlPolicy,
  record: (url: string) => void,
  options: { routeRequests: boolean; offsiteNavigations: boolean },
): Promise<void> {
  await context.addInitScript(stopForeignDocument)
  // Navigations that start in a page (a link, a script) are not asked first; they are seen here.
  const watch = (page: Page) => {
    page.on('framenavigated', (frame) => {
      const url = frame.url()
      // Chromium's own page for a load that was refused: nothing was loaded.
      if (url.startsWith('chrome-error:')) return
      if (policy.classifyNavigation(url) === 'blocked') record(url)
    })
    // Seen as the request starts, so one the proxy refuses (Chromium then shows its error page) is on record by its URL.
    if (options.offsiteNavigations) {
      page.on('request', (request) => {
        if (!request.isNavigationRequest() || frameOf(request) !== page.mainFrame()) return
        if (policy.classifyNavigation(request.url()) !== 'allow') record(request.url())
      })
    }
  }
  context.on('page', watch)
  // Judged here only when the proxy cannot: routing switches the browser's cache off for the context.
  if (options.routeRequests) await routeRequests(context, policy, record)
  await context.routeWebSocket(/.*/, async (socket) => {
    if (policy.classifySocket(socket.url()) === 'allow') {
      socket.connectToServer()
      return
    }
    record(socket.url())
    await socket.close({ code: 1008, reason: 'refused by the sandbox' }).catch(() => undefined)
  })
}

/** The frame a request is for; null for a service worker's, which has none. */
function frameOf(request: Request): Frame | null {
  try {
    return request.frame()
  } catch {
    return null
  }
}

/** Every request of the context's pages, judged before it leaves (the clones' https paths included). */
async function routeRequests(context: BrowserContext, policy: UrlPolicy, record: (url: string) => void): Promise<void> {
  await context.route('**/*', async (route) => {
    const request = route.request()
    const url = request.url()
    const verdict = request.isNavigationRequest() ? policy.classifyNavigation(url) : policy.classify(url)
    if (verdict === 'allow') return route.continue()
    if (verdict === 'blocked') record(url)
    return route.abort('blockedbyclient')
  })
}

/**
 * Runs first in every document, before its own scripts: a document that is not a web page (a
 * data: or blob: page a link or script opened) is stopped there, so nothing in it runs. The
 * navigation is recorded all the same.
 */
function stopForeignDocument(): void {
  const { protocol } = window.location
  if (protocol !== 'http:' && protocol !== 'https:' && protocol !== 'about:') window.stop()
}
