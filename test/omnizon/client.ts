import { OmnizonFinish } from '../../fixtures/apps/omnizon/state.ts'

export interface Reply {
  status: number
  /** Path and query of the last response (after redirects). */
  url: string
  text: string
  headers: Headers
  /** Every Set-Cookie header seen, in order. */
  setCookies: string[]
}

/** A tiny cookie-keeping HTTP client for one Omnizon session, following redirects by hand. */
export class Client {
  cookie: string | undefined

  constructor(readonly base: string) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>, accept = 'text/html'): Promise<Reply> {
    let url = new URL(path, this.base)
    let body: string | undefined = form ? new URLSearchParams(form).toString() : undefined
    const setCookies: string[] = []
    for (let hop = 0; hop < 6; hop++) {
      const headers: Record<string, string> = { accept }
      if (this.cookie) headers.cookie = this.cookie
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
      const res = await fetch(url, { method: hop === 0 ? method : 'GET', headers, body: hop === 0 ? body : undefined, redirect: 'manual' })
      for (const c of res.headers.getSetCookie()) {
        setCookies.push(c)
        const m = /^omnizon_session=([^;]*)/.exec(c)
        if (m) this.cookie = `omnizon_session=${m[1]}`
      }
      const location = res.headers.get('location')
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer()
        url = new URL(location, url)
        body = undefined
        continue
      }
      return { status: res.status, url: url.pathname + url.search, text: await res.text(), headers: res.headers, setCookies }
    }
    throw new Error(`too many redirects from ${path}`)
  }

  get(path: string): Promise<Reply> {
    return this.request('GET', path)
  }

  post(path: string, form: Record<string, string>): Promise<Reply> {
    return this.request('POST', path, form)
  }

  async config(query: string): Promise<{ schema: string; task_id: string; run_id: string; session: string }> {
    const r = await this.request('GET', `/config?${query}`, undefined, 'application/json')
    if (r.status !== 200) throw new Error(`/config answered ${r.status}: ${r.text}`)
    return JSON.parse(r.text)
  }

  async finishText(): Promise<Reply> {
    return this.request('GET', '/finish', undefined, 'application/json')
  }

  async finish(): Promise<OmnizonFinish> {
    const r = await this.finishText()
    if (r.status !== 200) throw new Error(`/finish answered ${r.status}: ${r.text}`)
    return OmnizonFinish.parse(JSON.parse(r.text))
  }

  async state() {
    return (await this.finish()).final
  }
}

/** The first element with this id, as raw HTML from its opening tag on. */
export function tagWithId(html: string, id: string): string | undefined {
  const m = new RegExp(`<[a-z]+[^>]*\\sid="${id}"[^>]*>`).exec(html)
  return m?.[0]
}
