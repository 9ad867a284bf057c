import { chromium, type Browser, type BrowserContext, type Page } from 'playwright'
import { PlaywrightComputer } from '../computer/playwright.ts'
import type { BrowserConfig } from '../schema/config.ts'
import { chromiumArgs, findBrowser } from './find-browser.ts'
import { UrlPolicy } from './url-policy.ts'

/** Connects to the run's browser server, or launches a browser of its own when there is none. */
export async function connectBrowser(config: BrowserConfig, wsEndpoint: string | undefined): Promise<Browser> {
  if (wsEndpoint) return chromium.connect(wsEndpoint)
  const { executablePath } = findBrowser(config.executable_path)
  return chromium.launch({ executablePath, headless: config.headless, args: chromiumArgs() })
}

export interface BrowserSandboxOptions {
  browser: Browser
  config: BrowserConfig
  /** Origins of the web clones this task may use. */
  origins: string[]
  /** Extra blocklist entries (a clone's harness-only endpoints). */
  blocklist: string[]
}

/**
 * One task's browser: a fresh context (own cookies, storage and clone session) at the configured
 * viewport, with every request outside the clones refused and blocklisted URLs recorded.
 */
export class BrowserSandbox {
  /** Blocklisted URLs the task's pages tried to load, in order. */
  readonly violations: string[] = []

  private constructor(
    readonly context: BrowserContext,
    readonly computer: PlaywrightComputer,
  ) {}

  static async open(options: BrowserSandboxOptions): Promise<BrowserSandbox> {
    const { browser, config } = options
    const context = await browser.newContext({
      viewport: config.viewport,
      screen: config.viewport,
      deviceScaleFactor: 1,
      locale: 'en-US',
      timezoneId: 'UTC',
      serviceWorkers: 'block',
    })
    const policy = new UrlPolicy({
      origins: options.origins,
      allowHosts: config.allow_hosts,
      blocklist: [...config.blocklist, ...options.blocklist],
    })
    const sandbox = new BrowserSandbox(context, await PlaywrightComputer.open(context))
    await context.route('**/*', async (route) => {
      const url = route.request().url()
      const verdict = policy.classify(url)
      if (verdict === 'allow') return route.continue()
      if (verdict === 'blocked') sandbox.violations.push(url)
      return route.abort('blockedbyclient')
    })
    return sandbox
  }

  get page(): Page {
    return this.computer.page
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined)
  }
}
