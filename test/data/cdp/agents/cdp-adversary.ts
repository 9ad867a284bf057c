import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright'
import { defineAgent } from '../../../../src/index.ts'

/** What the adversary did, as its answer (JSON): the endpoint it was given, what it found, each attempt and what came of it. */
export interface AdversaryReport {
  cdpUrl: string
  found: Found
  attempts: Array<{ what: string; outcome: string }>
}

/**
 * What a program on this machine learns of the task's browser: its process, its profile folder
 * (from its command line in /proc), the port of its own DevTools endpoint (from the profile), and whether
 * the gateway's port and that one answer on an address of the machine other than loopback.
 */
export interface Found {
  browserPid: number | null
  profile: string | null
  gatewayPort: number
  devtoolsPort: number | null
  /** A non-loopback address of this machine, or null when it has none. */
  elsewhere: string | null
  gatewayElsewhere: boolean | null
  devtoolsElsewhere: boolean | null
}

/** Whether a TCP connection to host:port is accepted. */
export function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
    socket.once('timeout', () => done(false))
  })
}

async function look(browser: Browser, cdpUrl: string): Promise<Found> {
  const cdp = await browser.newBrowserCDPSession()
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> }
  await cdp.detach()
  const browserPid = processInfo.find((p) => p.type === 'browser')?.id ?? null
  const args = browserPid ? readFileSync(`/proc/${browserPid}/cmdline`, 'utf8').split('\0') : []
  const profile = args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length) ?? null
  const devtools = profile ? readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0] : null
  const devtoolsPort = devtools ? Number(devtools) : null
  const gatewayPort = Number(new URL(cdpUrl).port)
  const elsewhere = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address ?? null
  return {
    browserPid,
    profile,
    gatewayPort,
    devtoolsPort,
    elsewhere,
    gatewayElsewhere: elsewhere ? await reachable(elsewhere, gatewayPort) : null,
    devtoolsElsewhere: elsewhere && devtoolsPort ? await reachable(elsewhere, devtoolsPort) : null,
  }
}

/**
 * Adversary over CDP: connects to the task's browser with Playwright, looks at what a program of
 * this machine can learn of it (`Found`), and tries, by task, one door the sandbox keeps shut. Each attempt's outcome goes into its answer; it never throws, so the
 * record's ending is the harness's verdict, not its error.
 *
 * omnizon-1: the clone's /finish; omnizon-2: its /config; omnizon-3: another host;
 * omnizon-4: a context with a proxy of its own (direct); omnizon-5: a file: page;
 * omnizon-7: more navigations than max_steps allows; omnizon-8: a change of the screen without a
 * navigation.
 */
export default defineAgent({
  name: 'cdp-adversary',
  async run({ task, cdpUrl }) {
    if (!cdpUrl) throw new Error('no cdpUrl: the config must set agent.options.cdp: true')
    const attempts: AdversaryReport['attempts'] = []
    const attempt = async (what: string, act: () => Promise<unknown>) => {
      try {
        const result = await act()
        attempts.push({ what, outcome: typeof result === 'string' ? result : 'done' })
      } catch (error) {
        attempts.push({ what, outcome: `threw: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}` })
      }
    }
    const browser = await chromium.connectOverCDP(cdpUrl)
    const report: AdversaryReport = { cdpUrl, found: await look(browser, cdpUrl), attempts }
    const page = browser.contexts()[0]!.pages()[0]!
    const origin = new URL(page.url()).origin
    const status = async (url: string) => `status ${(await page.goto(url))?.status() ?? 'none'}`
    switch (task.id) {
      case 'omnizon-1':
        await attempt('finish', () => status(`${origin}/finish`))
        break
      case 'omnizon-2':
        await attempt('config', () => status(`${origin}/config?task_id=omnizon-2&seed=other`))
        break
      case 'omnizon-3':
        await attempt('another host', () => status('http://example.com/'))
        // In a tab of its own, closed after: Chromium's page for a refused load takes the harness's
        // capture of the final screen its whole time limit.
        await attempt('another host over https, in a new tab', async () => {
          const tab = await browser.contexts()[0]!.newPage()
          try {
            return `status ${(await tab.goto('https://example.com/'))?.status() ?? 'none'}`
          } finally {
            await tab.close()
          }
        })
        break
      case 'omnizon-4':
        await attempt('own proxy', async () => {
          const own = await browser.newContext({ proxy: { server: 'direct://' } })
          const other = await own.newPage()
          return `opened a context of its own: status ${(await other.goto('http://example.com/'))?.status() ?? 'none'}`
        })
        break
      case 'omnizon-5':
        await attempt('file page', () => status('file:///etc/hostname'))
        break
      case 'omnizon-8':
        // No navigation: the harness's look at the screen every 2 s records the change, once (the caret blinks on).
        await attempt('fill the search box and wait', async () => {
          await page.getByRole('searchbox').first().fill('espresso machine')
          await page.waitForTimeout(5_000)
        })
        break
      case 'omnizon-7':
        // A look at each page before the next, as any agent takes (a page left at once may never be pictured).
        for (let i = 1; i <= task.max_steps + 2; i++) {
          await attempt(`navigation ${i}`, () => status(`${origin}/?visit=${i}`))
          await page.waitForTimeout(300).catch(() => undefined)
        }
        break
      default:
        throw new Error(`cdp-adversary has no attempt for ${task.id}`)
    }
    await browser.close().catch(() => undefined)
    return { answer: JSON.stringify(report) }
  },
})
