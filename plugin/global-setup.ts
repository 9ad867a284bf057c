import { chromium } from 'playwright'
import type { TestProject } from 'vitest/node'
import { startOmnizon } from '../fixtures/apps/omnizon/index.ts'
import { chromiumArgs, findBrowser } from '../src/sandbox/find-browser.ts'
import { failOnInputError } from './index.ts'
import '../src/fixtures/meta.ts'

/**
 * Runs once per benchmark run, in the main process: starts the web clones on loopback and one
 * browser server that every worker connects to, and stops them at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = project.getProvidedContext()['agentest:run']
  const found = failOnInputError(() => findBrowser(run.config.browser.executable_path))
  const external = run.config.apps.omnizon.url
  const [omnizon, browser] = await Promise.all([
    external ? { url: external.replace(/\/$/, ''), close: async () => {} } : startOmnizon(),
    chromium.launchServer({
      executablePath: found.executablePath,
      headless: run.config.browser.headless,
      args: chromiumArgs(),
    }),
  ])
  project.provide('agentest:apps', { omnizon: omnizon.url })
  project.provide('agentest:browser', browser.wsEndpoint())
  return async () => {
    await Promise.allSettled([browser.close(), omnizon.close()])
  }
}
