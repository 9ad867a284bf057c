import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'

const CachedReply = z.object({ url: z.string(), status: z.number().int(), content_type: z.string().nullable(), body: z.string() })

type Fetch = typeof globalThis.fetch

/** Where replies are kept, and the run-specific parts of a request (a clone's random port) to key without. */
export interface ModelCacheSettings {
  dir: string
  /** URLs that differ from run to run but mean the same (e.g. http://127.0.0.1:41234 for Omnizon), by stable name. */
  aliases: Record<string, string>
  /**
   * The epoch of the attempt: replies are cached per attempt, so epoch 2 asks the model afresh
   * instead of replaying epoch 1 (which would turn pass@k into pass@1 in disguise).
   */
  epoch?: number
}

/**
 * A fetch for the `openai` client that answers a request it has seen before from disk. The key
 * is the whole request (method, URL, body, with the run's own clone URLs named rather than
 * numbered) but not its headers, so the API key is never part of it; only successful replies
 * are kept. A repeated run then sends no model call and, given the
 * same screens, gets the same actions back: a run can be reproduced exactly.
 */
export function cachingFetch({ dir, aliases, epoch = 1 }: ModelCacheSettings, inner: Fetch = globalThis.fetch): Fetch {
  const canonical = (text: string) => Object.entries(aliases).reduce((out, [url, name]) => out.split(url).join(`<${name}>`), text)
  return async (input, init) => {
    const request = new Request(input, init)
    if (request.method !== 'POST') return inner(input, init)
    const body = await request.clone().text()
    const attempt = epoch > 1 ? `epoch ${epoch}\n` : ''
    const key = createHash('sha256').update(`${attempt}${request.method} ${request.url}\n${canonical(body)}`).digest('hex')
    const file = join(dir, `${key}.json`)
    const hit = await readFile(file, 'utf8').then(
      (text) => CachedReply.safeParse(JSON.parse(text)),
      () => null,
    )
    if (hit?.success) {
      return new Response(hit.data.body, { status: hit.data.status, headers: hit.data.content_type ? { 'content-type': hit.data.content_type } : {} })
    }
    const response = await inner(input, init)
    if (!response.ok) return response
    const text = await response.text()
    const contentType = response.headers.get('content-type')
    await mkdir(dir, { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    await writeFile(temporary, JSON.stringify({ url: request.url, status: response.status, content_type: contentType, body: text }))
    await rename(temporary, file)
    return new Response(text, { status: response.status, headers: contentType ? { 'content-type': contentType } : {} })
  }
}
