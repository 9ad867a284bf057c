import { describe, expect, test } from 'vitest'
import { spellings, UrlPolicy } from '../../src/urls/url-policy.ts'
import { disguises } from './disguises.ts'

/** What the harness puts on the blocklist for a clone at this origin (src/task/sandboxes.ts). */
const CLONE = 'http://127.0.0.1:4100'
const policy = new UrlPolicy({ origins: [CLONE], allowHosts: [], blocklist: [`${CLONE}/config`, `${CLONE}/finish`] })
/** The same with an allowed host: the routing mode (the policy is the same object either way). */
const routed = new UrlPolicy({ origins: [CLONE], allowHosts: ['cdn.example.test'], blocklist: [`${CLONE}/config`, `${CLONE}/finish`] })

describe('UrlPolicy judges a URL as the browser loads it', () => {
  test.each([...disguises(4100, '/finish'), ...disguises(4100, '/config').map((url) => `${url}?task_id=evil&run_id=evil`)])('%s is blocked, in both judging modes', (url) => {
    expect(policy.classify(url)).toBe('blocked')
    expect(routed.classify(url)).toBe('blocked')
    expect(policy.classifyNavigation(url)).toBe('blocked')
  })

  test('spellings the list above misses', () => {
    for (const url of [
      `${CLONE}/fin\tish`, // tabs and newlines are dropped by the parser
      `${CLONE}/fin\nish`,
      'http://１２７.０.０.１:4100/finish', // full-width digits map to ASCII
      `${CLONE}/finish#x`,
      `${CLONE}/finish?session=other`,
      `${CLONE}/FiNiSh`,
      `${CLONE}/%46INISH`,
      'http://[0:0:0:0:0:ffff:7f00:1]:4100/finish',
      'http://127.0.0.2:4100/finish', // any of 127/8 is this machine
      'http://app.localhost:4100/finish', // Chromium resolves *.localhost to loopback
      'http://[::1]:4100/finish',
      'http://0.0.0.0:4100/finish',
    ]) {
      expect(policy.classify(url), url).toBe('blocked')
    }
    expect(policy.classifySocket('ws://x@127.0.0.1:4100/live')).toBe('blocked')
    expect(policy.classifySocket('ws://localhost:4100/finish')).toBe('blocked')
  })

  test('any URL with a user name or a password is blocked, wherever it points', () => {
    expect(policy.classify(`http://x@127.0.0.1:4100/`)).toBe('blocked')
    expect(policy.classify(`http://127.0.0.1:4100@evil.example/`)).toBe('blocked')
    expect(routed.classify('https://user:pw@cdn.example.test/lib.js')).toBe('blocked')
    // An empty user-info is no credential: the parser drops it.
    expect(policy.classify(`http://@127.0.0.1:4100/cart`)).toBe('allow')
  })

  test('ordinary pages stay allowed, and other hosts stay offsite (refused quietly)', () => {
    for (const url of [
      `${CLONE}/`,
      `${CLONE}/product/p001`,
      `${CLONE}/search?q=finish`,
      `${CLONE}/search?q=%2Ffinish`,
      `${CLONE}/orders/finish`,
      `${CLONE}/fin`,
      `${CLONE}/caf%C3%A9`,
      `${CLONE}/%zz`,
      `${CLONE}/x/..`,
      'http://127.0.0.1:4100/#/finish',
    ]) {
      expect(policy.classify(url), url).toBe('allow')
    }
    expect(routed.classify('https://cdn.example.test/finish/lib.js')).toBe('allow')
    expect(policy.classify('http://127.0.0.1:4101/finish')).toBe('offsite')
    expect(policy.classify('http://localhost:4101/finish')).toBe('offsite')
    expect(policy.classify('http://[::ffff:127.0.0.1]:4100/cart')).toBe('offsite')
  })

  test('a substring pattern still blocks what it blocked as written: paths it is the start of', () => {
    // `http://127.0.0.1:4100/finish` is a substring pattern: `/finished-orders` starts with it.
    expect(policy.classify(`${CLONE}/finished-orders`)).toBe('blocked')
    expect(policy.classify(`${CLONE}/configure`)).toBe('blocked')
  })

  test('a /regex/ pattern is shown every spelling too, and a g flag does not make it skip one', () => {
    const anchored = new UrlPolicy({ origins: [CLONE], allowHosts: [], blocklist: ['/\\/finish$/g'] })
    expect(anchored.classify(`${CLONE}/finish/`)).toBe('blocked')
    expect(anchored.classify(`${CLONE}/%66inish`)).toBe('blocked')
    expect(anchored.classify(`${CLONE}/finish`)).toBe('blocked')
    expect(anchored.classify(`${CLONE}/finish`)).toBe('blocked')
    expect(anchored.classify(`${CLONE}/finished`)).toBe('allow')
  })

  test('the spellings: as written first, then canonical', () => {
    const forms = spellings('http://x@0x7f.1:4100/a/%2e%2e/%2566inish/?q=1#h')
    expect(forms[0]).toBe('http://x@0x7f.1:4100/a/%2e%2e/%2566inish/?q=1#h')
    expect(forms).toContain('http://127.0.0.1:4100/finish?q=1')
    expect(forms).toContain('http://localhost:4100/finish?q=1')
    expect(forms.some((form) => form.includes('#'))).toBe(true)
    expect(forms.slice(1).some((form) => form.includes('#') || form.includes('x@'))).toBe(false)
    expect(spellings('not a url')).toEqual(['not a url'])
  })
})
