import { randomBytes, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { listen } from '../http/listen.ts'
import type { ServedContext } from './context.ts'
import { ActionRequest, FinishRequest, servedActions, toolDescriptions } from './actions.ts'
import { handleMcp } from './mcp.ts'
import { RunOverError, ServedTask } from './served-task.ts'

export interface ServedComputer {
  /** The MCP endpoint (Streamable HTTP), e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string
  /** The JSON API's base, e.g. http://127.0.0.1:41234/v1 */
  apiUrl: string
  /** Every request must carry `Authorization: Bearer <token>`: other programs on the host cannot act on the task. */
  token: string
  /** Settles when the agent calls finish (its answer, and its usage when it said), or rejects with the error that ended the run. */
  outcome: Promise<FinishRequest>
  /** Ends the run from the harness's side: later calls are refused with this error. */
  fail(error: unknown): void
  close(): Promise<void>
}

export interface ServeOptions {
  /** Where to listen; default 127.0.0.1 (a container reaches it through a relay). */
  host?: string
}

/**
 * Serves one task's Computer to a program outside the harness: over MCP (Streamable HTTP) at
 * /mcp and as a JSON API under /v1 (docs/agent-protocol.md). Only the goal and the limits are
 * handed over; every action is a recorded step of the agent's own Computer.
 */
export async function serveComputer(context: ServedContext, options: ServeOptions = {}): Promise<ServedComputer> {
  const served = new ServedTask(context)
  const token = randomBytes(24).toString('base64url')
  const app = new Hono()
  app.use('*', async (c, next) => {
    if (!authorized(c.req.header('authorization'), token)) return c.json({ error: 'unauthorized', message: 'send Authorization: Bearer $AGENTEST_TOKEN' }, 401)
    return next()
  })
  app.all('/mcp', (c) => handleMcp(served, c.req.raw))
  app.get('/v1/task', (c) => c.json({ ...served.task, actions: ['screenshot', ...servedActions(served.computer).map((a) => a.type), 'finish'] }))
  app.get('/v1/tools', (c) => c.json({ tools: toolDescriptions(served.computer) }))
  app.get('/v1/screenshot', (c) =>
    answer(c, async () => {
      const png = await served.screenshot()
      return c.body(new Uint8Array(png), 200, { 'content-type': 'image/png' })
    }),
  )
  app.post('/v1/actions', (c) =>
    answer(c, async () => {
      const parsed = ActionRequest.safeParse(await c.req.json().catch(() => undefined))
      if (!parsed.success) return c.json({ error: 'invalid_action', message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') }, 400)
      const { thought, ...action } = parsed.data
      if (action.type === 'screenshot') return c.json({ error: 'invalid_action', message: 'a screenshot is not an action: GET /v1/screenshot' }, 400)
      if (!servedActions(served.computer).some((a) => a.type === action.type)) {
        return c.json({ error: 'invalid_action', message: `this ${served.computer.environment} computer has no "${action.type}" action` }, 400)
      }
      return c.json(await served.act(action, thought))
    }),
  )
  app.post('/v1/finish', (c) =>
    answer(c, async () => {
      const parsed = FinishRequest.safeParse(await c.req.json().catch(() => ({})))
      if (!parsed.success) return c.json({ error: 'invalid_finish', message: `the body is {"answer": "..."} (a string or null), with optional usage {input_tokens, output_tokens} and model: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}` }, 400)
      await served.finish(parsed.data)
      return c.json({ finished: true })
    }),
  )
  app.notFound((c) => c.json({ error: 'not_found', message: `no ${c.req.method} ${new URL(c.req.url).pathname}: see docs/agent-protocol.md` }, 404))
  const server = await listen(app, { host: options.host })
  return {
    mcpUrl: `${server.url}/mcp`,
    apiUrl: `${server.url}/v1`,
    token,
    outcome: served.outcome,
    fail: (error) => served.fail(error),
    close: () => server.close(),
  }
}

/** A call after the run ended is answered 409 with why; anything else that breaks is the harness's 500. */
async function answer(c: Context, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof RunOverError) return c.json({ error: error.reason, message: error.message }, 409)
    throw error
  }
}

function authorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
