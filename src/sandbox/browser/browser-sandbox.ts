import type { Browser, BrowserContext, Page } from 'playwright'
import { PlaywrightComputer } from '../../computer/playwright.ts'
import type { BrowserConfig } from '../../schema/config.ts'
import { writePlaywrightCodeCache } from './code-cache.ts'
import { EgressGuard } from './egress-guard.ts'
import { chromiumArgs, findBrowser, playwrightChromium } from './find-browser.ts'
import { UrlPolicy } from '../../urls/url-policy.ts'

/**
 * Connects to the run's browser server, or launches a browser of its own. Signals are not
 * Playwright's to act on: on Ctrl-C the tasks in flight still need the browser to finish their
 * records, and the harness closes it after (a killed process takes it along: its pipe closes).
 */
export async function connectBrowser(config: BrowserConfig, wsEndpoint: string | undefined): Promise<Browser> {
  const chromium = playwrightChromium()
  const browser = wsEndpoint
    ? await chromium.connect(wsEndpoint)
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

/** A violation's URL is kept this long: a data: URL can be megabytes. */
const MAX_RECORDED_URL = 200

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
  ) {}

  static async open(options: BrowserSandboxOptions): Promise<BrowserSandbox> {
    const { browser, config } = options
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
    // The proxy can judge every request when it sees every URL whole: plain-http clones, no other host.
    const judges = options.origins.every((origin) => new URL(origin).protocol === 'http:') && policy.allowHosts.length === 0
    const guard = await EgressGuard.start(policy, record, { judges })
    let context: BrowserContext | null = null
    try {
      context = await browser.newContext({
        viewport: config.viewport,
        screen: config.viewport,
        deviceScaleFactor: 1,
        locale: 'en-US',
        timezoneId: 'UTC',
        // A service worker would answer the pages' requests from outside the routing below.
        serviceWorkers: 'block',
        proxy: guard.proxy,
      })
      await confine(context, policy, record, { routeRequests: !judges })
      const computer = await PlaywrightComputer.open(context, {
        mayOpen: (url) => {
          if (policy.classifyNavigation(url) !== 'blocked') return true
          record(url)
          return false
        },
      })
      return new BrowserSandbox(context, computer, violations, guard)
    } catch (error) {
      await context?.close().catch(() => undefined)
      await guard.close()
      throw error
    }
  }

  get page(): Page {
    return this.computer.page
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined)
    await this.guard.close()
  }
}

/** Puts the policy on every page of the context, before the first one opens. */
async function confine(context: BrowserContext, policy: UrlPolicy, record: (url: string) => void, options: { routeRequests: boolean }): Promise<void> {
  await context.addInitScript(stopForeignDocument)
  // Navigations that start in a page (a link, a script) are not asked first; they are seen here.
  const watch = (page: Page) =>
    page.on('framenavigated', (frame) => {
      const url = frame.url()
      // Chromium's own page for a load that was refused: nothing was loaded.
      if (url.startsWith('chrome-error:')) return
      if (policy.classifyNavigation(url) === 'blocked') record(url)
    })
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
