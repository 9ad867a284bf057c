import { mkdtempSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAdaptorServer } from '@hono/node-server'
import { chromium, type Browser } from 'playwright'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createOmnizonApp } from '../../fixtures/apps/omnizon/index.ts'
import { StateClient } from '../../src/environments/state-client.ts'
import { OMNIZON_ENVIRONMENT } from '../../src/schema/environment.ts'
import { BrowserSandbox } from '../../src/sandbox/browser/browser-sandbox.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'
import { BrowserConfig } from '../../src/schema/config.ts'
import { Recorder } from '../../src/trajectory/recorder.ts'
import { BlockedUrlError, RecordingComputer } from '../../src/trajectory/recording-computer.ts'
import { disguises } from './disguises.ts'

/**
 * The outside tester's finding, in a real browser against Omnizon: `/finish` and `/config`
 * written so that the blocklist's text is not in them (credentials, case, escapes, dot segments,
 * IP literal forms, loopback names) reach nothing, in both judging modes, and each try is
 * recorded as a violation (which ends the task as `blocked_url`).
 */
describe('disguised harness endpoints in a real browser', () => {
  let browser: Browser
  let server: Server
  let origin: string
  let port: number
  /** Request targets Omnizon received, as sent. */
  const hits: string[] = []
  let sandbox: BrowserSandbox | null = null

  beforeAll(async () => {
    const app = createOmnizonApp()
    server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server
    server.prependListener('request', (req: { url?: string }) => hits.push(req.url ?? ''))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    port = (server.address() as AddressInfo).port
    origin = `http://127.0.0.1:${port}`
    browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  }, 30_000)

  afterEach(async () => {
    await sandbox?.close()
    sandbox = null
  })

  afterAll(async () => {
    await browser?.close()
    server?.closeAllConnections()
    server?.close()
  })

  /** A task's sandbox as src/task/sandboxes.ts opens it, its session configured, on the home page. */
  async function open(allowHosts: string[]) {
    sandbox = await BrowserSandbox.open({
      browser,
      config: BrowserConfig.parse({ viewport: { width: 800, height: 600 } }),
      origins: [origin],
      allowHosts,
      blocklist: [`${origin}/config`, `${origin}/finish`],
    })
    const client = new StateClient('omnizon', origin, OMNIZON_ENVIRONMENT.state!, sandbox.context.request)
    await client.configure({ taskId: 'own-task', runId: 'own-run' })
    await sandbox.page.goto(`${origin}/`)
    return { sandbox, client }
  }

  // The proxy judges when the clone is plain http and no other host is allowed; request routing otherwise.
  for (const [mode, allowHosts] of [
    ['judged by the proxy', []],
    ['judged by request routing', ['allowed.invalid']],
  ] as const) {
    describe(mode, () => {
      // Named with PORT for Omnizon's port, which is only known once it listens.
      const named = disguises(0, '/finish').map((shown, i) => ({ shown: shown.replace(':0/', ':PORT/').replace(':0\\', ':PORT\\'), i }))
      it.each(named)('$shown (and /config so): fetch, navigation and goto reach neither; each is recorded', async ({ i }) => {
        const { sandbox, client } = await open([...allowHosts])
        const finish = disguises(port, '/finish')[i]!
        const config = `${disguises(port, '/config')[i]!}?task_id=evil-task&run_id=evil-run`
        const page = sandbox.page
        const mark = hits.length
        // From a page's script: a sub-resource each (Chromium throws on credentials in fetch URLs).
        const fetched = await page.evaluate(
          (urls) => Promise.all(urls.map((url) => fetch(url).then((r) => `answered ${r.status}`, (e: Error) => `failed: ${e.message.slice(0, 60)}`))),
          [config, finish],
        )
        // Navigations not asked about first (as a link's or a script's are), then the agent's goto.
        for (const url of [config, finish]) await page.goto(url).catch(() => undefined)
        await expect(sandbox.computer.goto(finish)).rejects.toThrow(/^goto refused/)
        const reached = hits.slice(mark)
        expect(reached, `fetch: ${fetched.join(', ')}`).toEqual([])
        // Recorded: the /config try, and /finish as the agent wrote it (a fetch with credentials
        // never leaves the page; the proxy sees a navigation's URL without them, the page with).
        const recorded = sandbox.violations.join('\n')
        expect(sandbox.violations.some((url) => url.includes('task_id=evil-task')), recorded).toBe(true)
        expect(sandbox.violations, recorded).toContain(finish)
        // The session is still the harness's (state() refuses any other): no /config got through.
        expect(await client.state()).toMatchObject({ task_id: 'own-task', run_id: 'own-run' })
      })
    })
  }

  for (const [mode, allowHosts] of [
    ['judged by the proxy', []],
    ['judged by request routing', ['allowed.invalid']],
  ] as const) {
    it(`${mode}: a clicked link with credentials ends the task as a blocked URL (through the recorded computer)`, async () => {
      const { sandbox } = await open([...allowHosts])
      // A link on the clone's own page, as an agent-written review or a script could put it there.
      await sandbox.page.evaluate((href) => {
        document.body.innerHTML = `<a href="${href}" style="display:block;height:60px">go</a>`
      }, `http://x@127.0.0.1:${port}/cart`)
      const recorder = new Recorder(mkdtempSync(join(tmpdir(), 'agentest-disguise-')), 'task-1', null)
      // No step screenshots: Chromium's error page for a request the routing aborted takes the
      // capture's whole time limit (twice), which says nothing about the violation.
      const recorded = new RecordingComputer(sandbox.computer, recorder, {
        maxSteps: 5,
        signal: new AbortController().signal,
        violations: () => sandbox.violations,
        stepScreenshots: false,
      })
      const error = await recorded.click(30, 30).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(BlockedUrlError)
      // Routing refuses it before it leaves; through the proxy (which gets it without the
      // credentials) the page that opened is recorded as it shows, credentials and all.
      expect((error as Error).message).toBe(`the page tried to load a blocked URL: http://x@127.0.0.1:${port}/cart`)
    })
  }
})
