import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, request, type APIRequestContext, type Browser } from 'playwright'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startInbox, type InboxServer } from '../../fixtures/apps/inbox/index.ts'
import { SESSION_COOKIE, startOmnizon, type OmnizonServer } from '../../fixtures/apps/omnizon/index.ts'
import { OmnizonClient } from '../../fixtures/apps/omnizon/view.ts'
import { ForeignSessionError, SESSION_HEADER, StateClient } from '../../src/environments/state-client.ts'
import { OMNIZON_ENVIRONMENT, StateContract } from '../../src/schema/environment.ts'
import { BrowserSandbox } from '../../src/sandbox/browser/browser-sandbox.ts'
import { chromiumArgs, findBrowser } from '../../src/sandbox/browser/find-browser.ts'
import { BrowserConfig } from '../../src/schema/config.ts'
import { BlockedUrlError } from '../../src/trajectory/recording-computer.ts'

/**
 * Were a page to get past the blocklist to `/config` (or be handed another session's cookie), the
 * context's session would be another one; the harness reads `/finish` with the pages' cookie, so
 * it must notice that the state is not the session it configured, and refuse it.
 */
describe('the state client refuses a session it did not configure', () => {
  let browser: Browser
  let omnizon: OmnizonServer
  let inbox: InboxServer
  let sandbox: BrowserSandbox | null = null

  beforeAll(async () => {
    ;[omnizon, inbox] = await Promise.all([startOmnizon(), startInbox()])
    browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
  }, 30_000)

  afterEach(async () => {
    await sandbox?.close()
    sandbox = null
  })

  afterAll(async () => {
    await browser?.close()
    await Promise.all([omnizon?.close(), inbox?.close()])
  })

  /**
   * A task's sandbox and state client, configured as src/task/sandboxes.ts does, except that
   * nothing is blocklisted: as if the page had found a way to `/config`.
   */
  async function configured(url: string, name = 'omnizon') {
    sandbox = await BrowserSandbox.open({ browser, config: BrowserConfig.parse({ viewport: { width: 800, height: 600 } }), origins: [url], blocklist: [] })
    const client = new StateClient(name, url, StateContract.parse({}), sandbox.context.request)
    await client.configure({ taskId: 'own-task', runId: 'own-run' })
    await sandbox.page.goto(`${url}/`)
    return { sandbox, client }
  }

  it('its own session is graded, and /finish now says whose it is (in a header: the JSON is as before)', async () => {
    const { sandbox, client } = await configured(omnizon.url)
    const state = await client.state()
    expect(state).toMatchObject({ schema: 'omnizon.finish/v1', task_id: 'own-task', run_id: 'own-run' })
    expect(state).not.toHaveProperty('session')
    const cookie = (await sandbox.context.cookies()).find((c) => c.name === SESSION_COOKIE)
    expect((await sandbox.context.request.get(`${omnizon.url}/finish`)).headers()[SESSION_HEADER]).toBe(cookie?.value)
  })

  it('the page calls /config for another task and run: refused as a blocked-URL violation', async () => {
    const { sandbox, client } = await configured(omnizon.url)
    await sandbox.page.goto(`${omnizon.url}/config?task_id=other-task&run_id=other-run`)
    const error = await client.state().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ForeignSessionError)
    // A BlockedUrlError: the session records it as error kind blocked_url (src/task/session.ts).
    expect(error).toBeInstanceOf(BlockedUrlError)
    expect((error as Error).message).toMatch(/^the graded state is another session's: omnizon \/finish answered for task \{"task_id":"other-task","run_id":"other-run","session":"[0-9a-f-]+"\}/)
  })

  it('the page calls /config again for its own task and run (a fresh session to start over): refused', async () => {
    const { sandbox, client } = await configured(omnizon.url)
    await sandbox.page.goto(`${omnizon.url}/config?task_id=own-task&run_id=own-run`)
    await expect(client.state()).rejects.toThrow(/another session's: omnizon \/finish answered for session/)
  })

  it("another session's cookie set in the context: refused", async () => {
    const { sandbox, client } = await configured(omnizon.url)
    // A second session of the same task and run (another context, another attempt).
    const other = await browser.newContext()
    const answer = (await (await other.request.get(`${omnizon.url}/config?task_id=own-task&run_id=own-run`)).json()) as { session: string }
    await other.close()
    await sandbox.context.addCookies([{ name: SESSION_COOKIE, value: answer.session, url: omnizon.url }])
    await expect(client.state()).rejects.toBeInstanceOf(ForeignSessionError)
  })

  it("Omnizon's typed client (app.finish()) refuses it too", async () => {
    sandbox = await BrowserSandbox.open({ browser, config: BrowserConfig.parse({ viewport: { width: 800, height: 600 } }), origins: [omnizon.url], blocklist: [] })
    const client = new OmnizonClient(omnizon.url, sandbox.context.request)
    await client.configure({ taskId: 'own-task', runId: 'own-run' })
    expect((await client.finish()).finish.task_id).toBe('own-task')
    await sandbox.page.goto(`${omnizon.url}/config?task_id=other-task&run_id=own-run`)
    await expect(client.finish()).rejects.toBeInstanceOf(ForeignSessionError)
  })

  it('the Inbox app is held to the same (another run; then its own task and run afresh)', async () => {
    const { sandbox, client } = await configured(inbox.url, 'inbox')
    expect(await client.state()).toMatchObject({ task_id: 'own-task', run_id: 'own-run' })
    await sandbox.page.goto(`${inbox.url}/config?task_id=own-task&run_id=other-run`)
    await expect(client.state()).rejects.toThrow(/another session's: inbox \/finish answered for run/)
    await sandbox.page.goto(`${inbox.url}/config?task_id=own-task&run_id=own-run`)
    await expect(client.state()).rejects.toThrow(/another session's: inbox \/finish answered for session/)
  })

  it('with the blocklist in place (as tasks run), the page cannot swap it at all', async () => {
    sandbox = await BrowserSandbox.open({
      browser,
      config: BrowserConfig.parse({ viewport: { width: 800, height: 600 } }),
      origins: [omnizon.url],
      blocklist: [`${omnizon.url}/config`, `${omnizon.url}/finish`],
    })
    const client = new StateClient('omnizon', omnizon.url, OMNIZON_ENVIRONMENT.state!, sandbox.context.request)
    await client.configure({ taskId: 'own-task', runId: 'own-run' })
    await sandbox.page.goto(`http://x@${new URL(omnizon.url).host}/config?task_id=other-task&run_id=other-run`).catch(() => undefined)
    expect(sandbox.violations.length).toBeGreaterThan(0)
    expect(await client.state()).toMatchObject({ task_id: 'own-task', run_id: 'own-run' })
  })
})

describe('apps that say less about whose state it is', () => {
  let server: Server
  let url: string
  /** What the fake app answers: /config and /finish bodies. */
  let answers: { config: string; finish: string; header?: string }
  const contexts: APIRequestContext[] = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = req.url?.startsWith('/config') ? answers.config : answers.finish
      res.writeHead(200, { 'content-type': 'application/json', ...(answers.header ? { [SESSION_HEADER]: answers.header } : {}) }).end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.dispose()))
    server?.close()
  })

  async function client() {
    const context = await request.newContext()
    contexts.push(context)
    return new StateClient('app', url, StateContract.parse({}), context)
  }

  it('an app that names nobody (a plain "ok" from /config, bare state from /finish) is graded as before', async () => {
    answers = { config: 'ok', finish: '{"items": 3}' }
    const app = await client()
    await app.configure({ taskId: 't', runId: 'r' })
    expect(await app.state()).toEqual({ items: 3 })
  })

  it('an app that names the task but no session is held to the task and run', async () => {
    answers = { config: '{"task_id": "t", "run_id": "r"}', finish: '{"task_id": "t", "run_id": "r", "items": 3}' }
    const app = await client()
    await app.configure({ taskId: 't', runId: 'r' })
    expect(await app.state()).toMatchObject({ items: 3 })
    answers.finish = '{"task_id": "t", "run_id": "someone-else", "items": 3}'
    await expect(app.state()).rejects.toBeInstanceOf(ForeignSessionError)
  })

  it('a session named in the header of /finish is held to the one /config named', async () => {
    answers = { config: '{"task_id": "t", "run_id": "r", "session": "s1"}', finish: '{"task_id": "t", "run_id": "r"}', header: 's1' }
    const app = await client()
    await app.configure({ taskId: 't', runId: 'r' })
    expect(await app.state()).toEqual({ task_id: 't', run_id: 'r' })
    answers.header = 's2'
    await expect(app.state()).rejects.toThrow(/answered for session \{"task_id":"t","run_id":"r","session":"s2"\}/)
  })

  it('a /config answer for another task is the app misbehaving: configure fails', async () => {
    answers = { config: '{"task_id": "other", "run_id": "r", "session": "s1"}', finish: '{}' }
    const app = await client()
    await expect(app.configure({ taskId: 't', runId: 'r' })).rejects.toThrow(/^app \/config configured another task: /)
  })

  it('a state read before configure is not checked (nothing to hold it to)', async () => {
    answers = { config: '{}', finish: '{"task_id": "whoever", "session": "s9"}' }
    expect(await (await client()).state()).toEqual({ task_id: 'whoever', session: 's9' })
  })
})
