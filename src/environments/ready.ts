import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Waits until `url` answers HTTP with any status below 500 (a login page's 302 or a 404 is an
 * app that is up). `alive` says whether whatever serves it still runs; a dead server ends the
 * wait at once with its reason.
 */
export async function waitReady(url: string, timeoutMs: number, alive: () => string | null = () => null): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer yet'
  while (Date.now() < deadline) {
    const dead = alive()
    if (dead) throw new Error(dead)
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) })
      await response.body?.cancel()
      if (response.status < 500) return
      last = `status ${response.status}`
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      last = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
    }
    await sleep(150)
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms (${last})`)
}
