import type { BrowserServer } from 'playwright'
import type { TestProject } from 'vitest/node'
import { chromiumArgs, findBrowser, playwrightChromium } from '../src/sandbox/browser/find-browser.ts'
import { prepareDocker, type PreparedDocker } from './docker-setup.ts'
import { declaredEnvironments, OnDemandEnvironments } from '../src/environments/index.ts'
import { serveRunServices } from './run-services.ts'
import { dockerClient } from '../src/docker/index.ts'
import { failOnInputError } from './index.ts'
import '../src/task/meta.ts'
import { dirname, join } from 'node:path'
import { indexResults } from '../src/cache/run-cache.ts'
import type { BrowserConfig, BrowserScope, ResolvedRun } from '../src/schema/config.ts'
import { availableParallelism } from 'node:os'
import { scrubSecrets } from '../src/secrets/redact.ts'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { stringify } from 'yaml'

/**
 * Runs once per benchmark run, in the main process: serves its workers Docker (the engine checked,
 * dead runs' leftovers removed, the images built), the web clones (on loopback) and, under
 * `browser.scope: run`, one browser server they all connect to, each prepared or started when a
 * task first needs it. Stops and removes them all at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = project.getProvidedContext()['agentest:run']
  const log = (line: string) => project.vitest.logger.log(`agentest: ${line}`)
  // A browser elsewhere (browser.connect) needs none here.
  const found = run.config.browser.connect ? null : failOnInputError(() => findBrowser(run.config.browser.executable_path, run.config.browser.headless))
  // A run of browser tasks never needs Docker: prepared on first ask, its client (dockerode) is
  // never loaded nor the engine waited on (a one-task run's start: ~0.1 CPU-s and 0.2 s). A
  // packaged agent's image is built before any task, so no task's timeout pays for it.
  let prepared: Promise<PreparedDocker> | null = null
  const docker = () => (prepared ??= prepareDocker(run, log))
  const eager = run.agent_image ? await docker() : null
  const environments = new OnDemandEnvironments(declaredEnvironments(run.config), {
    cwd: run.config_file ? dirname(run.config_file) : run.root,
    runId: run.run_id,
    docker: async () => {
      const ready = await docker()
      if (!ready.provision.available) return null
      ready.watchContainers()
      return dockerClient()
    },
    builtin: async (name) => {
      if (name !== 'omnizon') throw new Error(`the ${name} environment names no url, command or image`)
      return (await import('../fixtures/apps/omnizon/index.ts')).startOmnizon()
    },
    log,
  })
  let browser: Promise<BrowserServer> | null = null
  const launchBrowser = async () => {
    // Loaded only for a run-scoped browser: Playwright's load is ~0.3 CPU-s of every run's start.
    const chromium = playwrightChromium()
    // Signals are the run's to handle (plugin/interrupt.ts): tasks in flight still need the browser
    // to finish their records; teardown closes it, and Playwright kills it if the process exits.
    return chromium.launchServer({
      executablePath: found?.executablePath,
      headless: run.config.browser.headless,
      args: chromiumArgs(),
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
  }
  const services = await serveRunServices({
    environment: (name) => environments.status(name),
    browser: async () => (await (browser ??= launchBrowser())).wsEndpoint(),
    watchContainers: () => void docker().then((ready) => ready.watchContainers()),
    docker: async () => (await docker()).provision,
  })
  await writeRunConfig(run)
  project.provide('agentest:cache', run.config.run.cache === 'refresh' ? {} : indexResults(dirname(run.results_path), run.run_id, log))
  project.provide('agentest:services', services.url)
  project.provide('agentest:browser-scope', browserScope(run.config.browser.scope, workerCount(project)))
  project.provide('agentest:docker', eager?.provision ?? null)
  return async () => {
    await services.close()
    const launched = await browser?.catch(() => null)
    const ready = await prepared?.catch(() => null)
    await Promise.allSettled([launched?.close(), environments.close(), ready?.teardown()])
  }
}

/**
 * auto: a browser per worker while there are no more workers than cores (measured: 13% faster
 * at two workers on two cores); beyond that, one for the run (at 16 workers on two cores, 16
 * browsers starting at once took 27 GB of RSS and starved the clone until its tasks failed).
 */
export function browserScope(configured: BrowserConfig['scope'], workers: number): BrowserScope {
  if (configured !== 'auto') return configured
  return workers <= availableParallelism() ? 'worker' : 'run'
}

/** How many workers Vitest runs the project's files in (its own resolution: project, root, default). */
function workerCount(project: TestProject): number {
  const { watch } = project.vitest.config
  const byDefault = Math.max(watch ? Math.floor(availableParallelism() / 2) : availableParallelism() - 1, 1)
  return project.config.maxWorkers || project.vitest.config.maxWorkers || byDefault
}

/** The run's resolved settings beside its results, secrets redacted: what produced these results. */
async function writeRunConfig(run: ResolvedRun): Promise<void> {
  const { config } = run
  const keys = [config.agent.api_key_env, config.grader.api_key_env].map((name) => process.env[name])
  const file = join(run.results_path, 'config.yaml')
  const body = stringify({
    run_id: run.run_id,
    name: config.run.name,
    started_at: new Date().toISOString(),
    config_file: run.config_file,
    agent_image: run.agent_image ? { ref: run.agent_image.ref, file: run.agent_image.shown } : null,
    config: scrubSecrets(config, keys),
  })
  await mkdir(run.results_path, { recursive: true })
  await writeFile(`${file}.tmp`, `# The resolved settings of this run (secrets redacted).\n${body}`)
  await rename(`${file}.tmp`, file)
}
