import { existsSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { findBrowser } from '../../src/sandbox/find-browser.ts'

const DEBIAN_SHELL = '/usr/lib/chromium/chromium-headless-shell'

describe('findBrowser', () => {
  test('a configured path wins, headless or not; a missing one is refused with the field', () => {
    expect(findBrowser(process.execPath, true)).toEqual({ executablePath: process.execPath, source: 'config' })
    expect(() => findBrowser('/nonexistent/chromium', true)).toThrow('browser.executable_path: no browser at /nonexistent/chromium')
  })

  test.runIf(existsSync(DEBIAN_SHELL))("headless runs get Debian's headless shell; a headed one never does (it has no window)", () => {
    expect(findBrowser(null, true).executablePath).toBe(DEBIAN_SHELL)
    expect(findBrowser(null).executablePath).toBe(DEBIAN_SHELL)
    expect(findBrowser(null, false).executablePath).not.toContain('headless')
  })
})
