import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { inFreshNode } from '../support/fresh-node.ts'

const folder = mkdtempSync(join(tmpdir(), 'agentest-code-cache-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/**
 * Loads Playwright through the code cache in a fresh Node (a framework worker may have loaded it
 * already), drives a real browser, and reports how each bundle was compiled.
 */
function loadAndDrive(): { uses: Record<string, string>; text: string; png: string } {
  const script = `
    import { createRequire } from 'node:module'
    import { codeCacheUses, withPlaywrightCodeCache, writePlaywrightCodeCache } from './src/sandbox/browser/code-cache.ts'
    import { chromiumArgs, findBrowser } from './src/sandbox/browser/find-browser.ts'
    const { chromium } = withPlaywrightCodeCache(() => createRequire(process.cwd() + '/package.json')('playwright'), ${JSON.stringify(folder)})
    const browser = await chromium.launch({ executablePath: findBrowser(null).executablePath, args: chromiumArgs() })
    writePlaywrightCodeCache()
    const page = await browser.newPage()
    await page.setContent('<p id="x">hello</p>')
    const text = await page.textContent('#x')
    const shot = await page.screenshot()
    await browser.close()
    console.log(JSON.stringify({ uses: codeCacheUses(), text, png: shot.subarray(1, 4).toString() }))
  `
  return JSON.parse(inFreshNode(script))
}

const cacheFiles = () => readdirSync(folder).sort()

describe.runIf(process.platform === 'linux')("Playwright's bundles from V8's code cache", { timeout: 60_000 }, () => {
  test('the first process compiles them and writes the cache; the next compiles from it; both drive a browser', () => {
    const first = loadAndDrive()
    expect(first).toEqual({ uses: { coreBundle: 'no-cache', utilsBundle: 'no-cache' }, text: 'hello', png: 'PNG' })
    // One file per bundle, named by its content and Node's version; none half-written.
    expect(cacheFiles()).toEqual([expect.stringMatching(new RegExp(`^coreBundle-[0-9a-f]{20}-${process.version}-${process.arch}\\.bin$`)), expect.stringMatching(/^utilsBundle-[0-9a-f]{20}-.*\.bin$/)])

    expect(loadAndDrive()).toEqual({ uses: { coreBundle: 'from-cache', utilsBundle: 'from-cache' }, text: 'hello', png: 'PNG' })
  })

  test('a damaged cache is rejected by V8: the bundle compiles as usual, and its cache is written again', () => {
    const core = cacheFiles().find((name) => name.startsWith('coreBundle-'))!
    writeFileSync(join(folder, core), Buffer.alloc(4096, 7))
    expect(loadAndDrive()).toEqual({ uses: { coreBundle: 'rejected', utilsBundle: 'from-cache' }, text: 'hello', png: 'PNG' })
    expect(loadAndDrive().uses).toEqual({ coreBundle: 'from-cache', utilsBundle: 'from-cache' })
  })
})
