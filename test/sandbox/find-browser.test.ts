import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { findBrowser, type FoundBrowser } from '../../src/sandbox/browser/find-browser.ts'
import { inFreshNode } from '../support/fresh-node.ts'

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

  // In a child: Playwright reads where its browsers are once, when it loads.
  test.each([
    ['PLAYWRIGHT_BROWSERS_PATH', (dir: string) => ({ PLAYWRIGHT_BROWSERS_PATH: dir })],
    ["Playwright's cache folder (npx playwright install's default)", (dir: string) => ({ PLAYWRIGHT_BROWSERS_PATH: '', XDG_CACHE_HOME: dir })],
  ])("Playwright's own download wins when %s holds one", (_where, place) => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-pw-browsers-'))
    const env = { ...process.env, ...place(dir) }
    const node = (code: string) => inFreshNode(code, env)
    const found = () => JSON.parse(node(`import { findBrowser } from './src/sandbox/browser/find-browser.ts'; console.log(JSON.stringify(findBrowser(null, true)))`)) as FoundBrowser
    const expected = node(`import { chromium } from 'playwright'; console.log(chromium.executablePath())`)
    expect(expected.startsWith(dir)).toBe(true)
    if (existsSync(DEBIAN_SHELL)) expect(found()).toEqual({ executablePath: DEBIAN_SHELL, source: 'system' })
    mkdirSync(dirname(expected), { recursive: true })
    writeFileSync(expected, '')
    expect(found()).toEqual({ executablePath: expected, source: 'playwright' })
  })
})
