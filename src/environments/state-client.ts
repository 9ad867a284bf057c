import type { APIRequestContext } from 'playwright'
import type { StateContract } from './spec.ts'

/**
 * The harness's side of an app's state contract (`/config` + `/finish`, or the paths it names),
 * spoken through the task's browser context so the session cookie is the pages' own.
 */
export class StateClient {
  constructor(
    readonly name: string,
    readonly url: string,
    private readonly contract: StateContract,
    private readonly request: APIRequestContext,
  ) {}

  /** Resets this browser context's session, seeded; `extra` carries an app's own parameters. */
  async configure(options: { taskId: string; runId: string; seed?: string; extra?: Record<string, string> }): Promise<void> {
    const query = new URLSearchParams({ task_id: options.taskId, run_id: options.runId, ...options.extra })
    if (options.seed) query.set('seed', options.seed)
    const response = await this.request.get(`${this.url}${this.contract.config_path}?${query}`)
    if (!response.ok()) throw new Error(`${this.name} ${this.contract.config_path} answered ${response.status()}: ${(await response.text()).trim().slice(0, 300)}`)
  }

  /** The session's state as the app states it (JSON). */
  async state(): Promise<unknown> {
    const path = this.contract.finish_path
    const response = await this.request.get(`${this.url}${path}`)
    const body = await response.text()
    if (!response.ok()) throw new Error(`${this.name} ${path} answered ${response.status()}: ${body.trim().slice(0, 300)}`)
    try {
      return JSON.parse(body) as unknown
    } catch {
      throw new Error(`${this.name} ${path} did not answer JSON: ${body.trim().slice(0, 120)}`)
    }
  }
}
