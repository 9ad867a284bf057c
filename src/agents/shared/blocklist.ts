import type { Computer } from '../../computer/computer.ts'
import { UrlPolicy } from '../../urls/url-policy.ts'
import { BlockedUrlError } from '../../trajectory/recording-computer.ts'

/**
 * The agent's own URL blocklist (`agent.options.blocklist`, the same patterns as
 * `browser.blocklist`). It is checked by reading the page's URL after each action, never from
 * inside a route handler, where throwing would only break the request.
 */
export class UrlBlocklist {
  private readonly policy: UrlPolicy | null

  constructor(patterns: readonly string[]) {
    this.policy = patterns.length ? new UrlPolicy({ origins: [], allowHosts: [], blocklist: [...patterns] }) : null
  }

  /** Throws BlockedUrlError (recorded as error kind blocked_url) when the computer is on a blocked URL. */
  async check(computer: Computer): Promise<void> {
    if (!this.policy) return
    const url = await computer.currentUrl()
    if (url && this.policy.classify(url) === 'blocked') {
      throw new BlockedUrlError(`the agent reached a blocklisted URL: ${url} (agent.options.blocklist)`)
    }
  }
}
