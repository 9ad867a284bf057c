import type { APIRequestContext } from 'playwright'
import { z } from 'zod'
import { BlockedUrlError } from '../trajectory/recording-computer.ts'
import type { StateContract } from '../schema/environment.ts'

/**
 * The response header an app may name the session of a `/finish` answer in. Omnizon's and
 * Inbox's do, rather than in the JSON, which stays byte-identical for the same actions.
 */
export const SESSION_HEADER = 'x-session-id'

/**
 * Who a `/config` or `/finish` answer is for, as far as the app says (the session in its JSON or
 * SESSION_HEADER). An app that says less, or not as a string, is held to what it says. Other
 * fields are the app's own.
 */
const named = z.string().optional().catch(undefined)
const SessionIdentity = z.object({ task_id: named, run_id: named, session: named })
type SessionIdentity = z.infer<typeof SessionIdentity>

/**
 * The graded state is another session's: the pages swapped the context's session (a `/config`
 * of their own, another session's cookie). A `BlockedUrlError`, so the record shows it as the
 * `blocked_url` violation it came from, and the foreign state is never graded.
 */
export class ForeignSessionError extends BlockedUrlError {
  override name = 'ForeignSessionError'
}

/**
 * The harness's side of an app's state contract (`/config` + `/finish`, or the paths it names),
 * spoken through the task's browser context so the session cookie is the pages' own.
 */
export class StateClient {
  /** What `configure` set up: the state must be for it. Null until then. */
  private configured: SessionIdentity | null = null

  constructor(
    readonly name: string,
    readonly url: string,
    private readonly contract: StateContract,
    private readonly request: APIRequestContext,
  ) {}

  /** Resets this browser context's session, seeded; `extra` carries an app's own parameters. */
  async configure(options: { taskId: string; runId: string; seed?: string; extra?: Record<string, string> }): Promise<void> {
    const path = this.contract.config_path
    const query = new URLSearchParams({ task_id: options.taskId, run_id: options.runId, ...options.extra })
    if (options.seed) query.set('seed', options.seed)
    const response = await this.request.get(`${this.url}${path}?${query}`)
    const body = await response.text()
    if (!response.ok()) throw new Error(`${this.name} ${path} answered ${response.status()}: ${body.trim().slice(0, 300)}`)
    const expected = { task_id: options.taskId, run_id: options.runId }
    // An app may answer anything; one that names a session names the one `state` must be of.
    const answer = identityOf(body)
    const wrong = answer && mismatch(expected, answer)
    if (wrong) throw new Error(`${this.name} ${path} configured another ${wrong}: ${body.trim().slice(0, 300)}`)
    this.configured = { ...expected, session: answer?.session ?? response.headers()[SESSION_HEADER] }
  }

  /**
   * The session's state as the app states it (JSON). After `configure`, an answer for another
   * task, run or session is refused (ForeignSessionError) rather than graded.
   */
  async state(): Promise<unknown> {
    const path = this.contract.finish_path
    const response = await this.request.get(`${this.url}${path}`)
    const body = await response.text()
    if (!response.ok()) throw new Error(`${this.name} ${path} answered ${response.status()}: ${body.trim().slice(0, 300)}`)
    let state: unknown
    try {
      state = JSON.parse(body) as unknown
    } catch {
      throw new Error(`${this.name} ${path} did not answer JSON: ${body.trim().slice(0, 120)}`)
    }
    const said = SessionIdentity.safeParse(state).data ?? {}
    const answer = { ...said, session: said.session ?? response.headers()[SESSION_HEADER] }
    const wrong = this.configured && mismatch(this.configured, answer)
    if (wrong) {
      const { task_id, run_id, session } = answer
      throw new ForeignSessionError(
        `the graded state is another session's: ${this.name} ${path} answered for ${wrong} ${JSON.stringify({ task_id, run_id, session })}, ` +
          `not the one the harness configured ${JSON.stringify(this.configured)} (the pages changed the session)`,
      )
    }
    return state
  }
}

/** The identity a JSON answer states, or null (not JSON, not an object). */
function identityOf(body: string): SessionIdentity | null {
  try {
    const parsed = SessionIdentity.safeParse(JSON.parse(body))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The first of task id, run id and session that both sides name and that differs ("task", "run", "session"), or null. */
function mismatch(expected: SessionIdentity, answer: SessionIdentity): string | null {
  const fields = [
    ['task_id', 'task'],
    ['run_id', 'run'],
    ['session', 'session'],
  ] as const
  for (const [field, what] of fields) {
    const [want, got] = [expected[field], answer[field]]
    if (want !== undefined && got !== undefined && want !== got) return what
  }
  return null
}
