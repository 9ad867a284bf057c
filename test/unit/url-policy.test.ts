import { describe, expect, test } from 'vitest'
import { UrlPolicy } from '../../src/sandbox/url-policy.ts'

describe('UrlPolicy', () => {
  const policy = new UrlPolicy({
    origins: ['http://127.0.0.1:4100'],
    allowHosts: ['docs.example.test'],
    blocklist: ['http://127.0.0.1:4100/finish', '/\\/admin\\b/i'],
  })

  test('the clone and the allowed hosts load', () => {
    expect(policy.classify('http://127.0.0.1:4100/search?q=x')).toBe('allow')
    expect(policy.classify('https://docs.example.test/page')).toBe('allow')
    expect(policy.classify('data:image/png;base64,AAAA')).toBe('allow')
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
})
