import { chromium } from 'playwright'
import type { TestProject } from 'vitest/node'
import { startOmnizon } from '../fixtures/apps/omnizon/index.ts'
import { chromiumArgs, findBrowser } from '../src/sandbox/find-browser.ts'
import { prepareDocker } from './docker-setup.ts'
import { failOnInputError } from './index.ts'
import '../src/fixtures/meta.ts'

/**
 * Runs once per benchmark run, in the main process: starts the web clones on loopback, one
 * browser server that every worker connects to, and Docker's images and leftovers; stops and
 * removes them all at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = project.getProvidedContext()['agentest:run']
  const log = (line: string) => project.vitest.logger.log(`agentest: ${line}`)
  const found = failOnInputError(() => findBrowser(run.config.browser.executable_path))
  const external = run.config.apps.omnizon.url
  const [omnizon, browser, docker] = await Promise.all([
    external ? { url: external.replace(/\/$/, ''), close: async () => {} } : startOmnizon(),
    chromium.launchServer({ executablePath: found.executablePath, headless: run.config.browser.headless, args: chromiumArgs() }),
    prepareDocker(run, log),
  ])
  project.provide('agentest:apps', { omnizon: omnizon.url })
  project.provide('agentest:browser', browser.wsEndpoint())
  project.provide('agentest:docker', docker.provision)
  return async () => {
    await Promise.allSettled([browser.close(), omnizon.close(), docker.teardown()])
  }
}
