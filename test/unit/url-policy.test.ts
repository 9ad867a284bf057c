import { describe, expect, test } from 'vitest'
import { UrlPolicy } from '../../src/urls/url-policy.ts'

describe('UrlPolicy', () => {
  const policy = new UrlPolicy({
    origins: ['http://127.0.0.1:4100'],
    allowHosts: ['docs.example.test'],
    blocklist: ['http://127.0.0.1:4100/finish', '/\\/admin\\b/i'],
  })

  test('the clone and the allowed hosts load', () => {
    expect(policy.classify('http://127.0.0.1:4100/search?q=x')).toBe('allow')
    expect(policy.classify('https://docs.example.test/page')).toBe('allow')
  })

  test("a page's inline data: and blob: resources (an image) still load", () => {
    expect(policy.classify('data:image/png;base64,AAAA')).toBe('allow')
    expect(policy.classify('blob:http://127.0.0.1:4100/0b9f5c2e')).toBe('allow')
  })

  test('every other host is refused quietly', () => {
    expect(policy.classify('https://www.google.com/')).toBe('offsite')
    expect(policy.classify('http://127.0.0.1:4101/')).toBe('offsite')
    expect(policy.classify('not a url')).toBe('offsite')
  })

  test('blocklisted URLs are reported, by substring or /regex/', () => {
    expect(policy.classify('http://127.0.0.1:4100/finish')).toBe('blocked')
    expect(policy.classify('http://127.0.0.1:4100/ADMIN/users')).toBe('blocked')
  })

  test('a blocklisted path spelled with percent escapes is still blocked (servers decode them)', () => {
    expect(policy.classify('http://127.0.0.1:4100/%66inish')).toBe('blocked')
    expect(policy.classify('http://127.0.0.1:4100/fin%69sh?x=1')).toBe('blocked')
    expect(policy.classify('http://127.0.0.1:4100/%2566inish')).toBe('blocked')
    expect(policy.classify('http://127.0.0.1:4100/%61dmin')).toBe('blocked')
    expect(policy.classifySocket('ws://127.0.0.1:4100/%66inish')).toBe('blocked')
    expect(policy.classify('http://127.0.0.1:4100/%zz')).toBe('allow')
    expect(policy.classify('http://127.0.0.1:4100/caf%C3%A9')).toBe('allow')
  })
})

describe('UrlPolicy: what a frame may show', () => {
  const policy = new UrlPolicy({ origins: ['http://127.0.0.1:4100'], allowHosts: [], blocklist: ['/finish'] })

  test('web pages are judged as requests are', () => {
    expect(policy.classifyNavigation('http://127.0.0.1:4100/cart')).toBe('allow')
    expect(policy.classifyNavigation('https://www.google.com/')).toBe('offsite')
    expect(policy.classifyNavigation('http://127.0.0.1:4100/finish')).toBe('blocked')
  })

  test('the empty page (and an iframe of inline markup) may be shown', () => {
    expect(policy.classifyNavigation('about:blank')).toBe('allow')
    expect(policy.classifyNavigation('about:srcdoc')).toBe('allow')
  })

  test('a page the agent wrote, or a file of the machine, is blocked', () => {
    for (const url of [
      'data:text/html,<script>alert(1)</script>',
      'blob:http://127.0.0.1:4100/0b9f5c2e',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'view-source:http://127.0.0.1:4100/',
      'chrome://settings',
      'ftp://127.0.0.1:4100/',
      'about:settings',
    ]) {
      expect(policy.classifyNavigation(url), url).toBe('blocked')
    }
  })

  test('case, whitespace and tabs in the scheme do not hide it', () => {
    expect(policy.classifyNavigation('DATA:text/html,x')).toBe('blocked')
    expect(policy.classifyNavigation('  javascript:alert(1)')).toBe('blocked')
    expect(policy.classifyNavigation('java\tscript:alert(1)')).toBe('blocked')
    expect(policy.classifyNavigation('JavaScript:alert(1)')).toBe('blocked')
  })
})

describe('UrlPolicy: WebSockets', () => {
  const policy = new UrlPolicy({
    origins: ['http://127.0.0.1:4100'],
    allowHosts: ['chat.example.test'],
    blocklist: ['http://127.0.0.1:4100/finish'],
  })

  test("the clone's own host and port, and the allowed hosts, connect", () => {
    expect(policy.classifySocket('ws://127.0.0.1:4100/live')).toBe('allow')
    expect(policy.classifySocket('wss://chat.example.test/socket')).toBe('allow')
  })

  test('a socket anywhere else is blocked, not refused quietly', () => {
    expect(policy.classifySocket('ws://127.0.0.1:4101/')).toBe('blocked')
    expect(policy.classifySocket('wss://127.0.0.1:4100/')).toBe('blocked') // another origin: https, port 4100
    expect(policy.classifySocket('wss://evil.example.com/exfil')).toBe('blocked')
    expect(policy.classifySocket('ws://127.0.0.1:4100/finish')).toBe('blocked')
    expect(policy.classifySocket('http://127.0.0.1:4100/')).toBe('blocked')
    expect(policy.classifySocket('not a url')).toBe('blocked')
  })

  test('a proxy CONNECT reaches only the clones and the allowed hosts', () => {
    expect(policy.mayConnect('127.0.0.1', '4100')).toBe(true)
    expect(policy.mayConnect('CHAT.example.test', '443')).toBe(true)
    expect(policy.mayConnect('127.0.0.1', '4101')).toBe(false)
    expect(policy.endpoints).toEqual(['127.0.0.1:4100'])
  })
})
