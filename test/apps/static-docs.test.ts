import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let child: ChildProcess
let url: string

beforeAll(async () => {
  child = spawn(process.execPath, ['fixtures/apps/static-docs/serve.mjs', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.setEncoding('utf8')
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 10_000)
    child.stdout!.on('data', (chunk: string) => {
      out += chunk
      const m = /^static-docs listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    })
  })
})

afterAll(async () => {
  if (child.exitCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
})

/** A raw GET that sends the path as written (fetch would resolve "..", the server must refuse it itself). */
function rawGet(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { path }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

describe('static-docs serve.mjs', () => {
  it('serves the pages, with / as index.html', async () => {
    for (const page of ['/', '/index.html', '/install.html', '/configuration.html', '/faq.html', '/changelog.html', '/upgrade-3.html']) {
      const res = await fetch(`${url}${page}`)
      expect(res.status, page).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await res.text()).toContain('<header class="site">')
    }
    expect((await fetch(`${url}/style.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await (await fetch(`${url}/`)).text()).toContain('id="current-version"')
  })

  it('answers 404 outside the folder, for its own source, and for unknown paths', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/serve.mjs', '/README.md', '/nope.html', '/.hidden']) {
      expect(await rawGet(path), path).toBe(404)
    }
  })

  it('refuses methods other than GET and HEAD', async () => {
    expect((await fetch(`${url}/`, { method: 'POST', body: 'x' })).status).toBe(405)
    const head = await fetch(`${url}/faq.html`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})
