import { readFileSync } from 'node:fs'
import { chromium } from 'playwright'
import { describe, expect, test } from 'vitest'
import { chromiumArgs, findBrowser, PLAYWRIGHT_DISABLED_FEATURES } from '../../src/sandbox/browser/find-browser.ts'

/** The command line a launched browser really got, read back from the process. */
async function launchedCommandLine(args: string[]): Promise<string[]> {
  const server = await chromium.launchServer({ executablePath: findBrowser(null).executablePath, args })
  try {
    return readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } finally {
    await server.close()
  }
}

/** What Chromium applies: the last `--disable-features` wins whole, earlier ones are dropped. */
function disabledFeatures(commandLine: string[]): string[] {
  const last = commandLine.filter((arg) => arg.startsWith('--disable-features=')).at(-1)
  return last ? last.slice('--disable-features='.length).split(',') : []
}

describe.runIf(process.platform === 'linux')("the browser's flags", () => {
  test("agentest's --disable-features keeps every feature Playwright switches off, and adds its own", async () => {
    const playwrights = disabledFeatures(await launchedCommandLine(['--no-sandbox']))
    const agentests = disabledFeatures(await launchedCommandLine(chromiumArgs()))
    expect(playwrights.length, "Playwright's own list").toBeGreaterThan(5)
    // An upgrade of Playwright that changes its list fails here: update PLAYWRIGHT_DISABLED_FEATURES.
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...playwrights].sort())
    expect(agentests).toEqual(expect.arrayContaining([...playwrights, 'AutofillServerCommunication']))
  })
})
