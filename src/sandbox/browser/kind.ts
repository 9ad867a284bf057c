import type { Page } from 'playwright'
import { declaredEnvironments } from '../../environments/start.ts'
import { StateClient } from '../../environments/state-client.ts'
import { undeclaredEnvironment } from '../../schema/environment.ts'
import { errorLine, type Fault } from '../../faults/kinds.ts'
import { BrowserUi } from '../../reference/browser-ui.ts'
import { SandboxUnavailable, type SandboxKind, type SandboxRequest, type TaskSandbox } from '../kind.ts'
import { appKit, type AppView } from './app-kit.ts'
import { BrowserSandbox } from './browser-sandbox.ts'
import { registerCdpTurn } from './cdp-turn.ts'
import { actsThroughServedComputer } from '../../agent-images/container-settings.ts'

/** The web app of a browser task: where it runs and its graded state. */
export interface WebApp {
  url: string
  /** The environment's name (`app:` in the task). */
  name: string
  /**
   * This task's session state as the app's finish path states it (JSON); an app declared without
   * a state contract has none, and asking is an error. `T` names its shape for the checks
   * (`app.state<MyState>()`); nothing checks it at run time, so parse it with your zod schema
   * where a wrong shape must fail the task.
   */
  state<T = unknown>(): Promise<T>
  /** The app's typed view of that state (Omnizon's OmnizonView), for apps that have one. */
  finish(): Promise<AppView>
}

/** What a browser task's body gets of its sandbox. */
export interface BrowserParts {
  /** The web clone under test and its graded state. */
  app: WebApp
  /** The task's browser page, for reading state in checks. */
  page: Page
  browser: BrowserSandbox
}

/** A browser context on a web clone declared under `environments:` (`app:` in the task). */
export const browserKind: SandboxKind<BrowserParts> = {
  name: 'browser',
  environment: 'browser',
  claims: (fields) => fields.app !== undefined,
  open: openBrowser,
  probes: ({ fields, services }) => ({ clone: async () => cloneDown(fields.app!, await services.appUrl(fields.app!)) }),
  recordedParts(record, finalState, refuse) {
    if (!record.app) return {}
    const name = record.app
    const state = async <T = unknown>(): Promise<T> => (finalState ?? refuse(`give the ${name} state: it recorded none`)) as T
    const view = appKit(name).view
    return {
      app: {
        url: `(reused from run ${record.run_id})`,
        name,
        state,
        finish: async () => (view && finalState ? view(finalState) : refuse(`give ${name}'s typed state: it recorded none`)),
      },
    }
  },
}

async function openBrowser({ taskId, fields, services }: SandboxRequest): Promise<TaskSandbox<BrowserParts>> {
  const { run } = services
  const appName = fields.app!
  if (run.agent_image && !actsThroughServedComputer(run.agent_image)) {
    // Said on the console too: a skip's reason is otherwise only in the task's record.
    const reason = `the packaged agent ${run.agent_image.ref} acts in its own desktop container (spec.computer: own-desktop); ${taskId} is a browser task`
    process.stderr.write(`agentest: skipped ${taskId}: ${reason}\n`)
    throw new SandboxUnavailable(reason)
  }
  const environment = declaredEnvironments(run.config)[appName]
  if (!environment) throw new SandboxUnavailable(undeclaredEnvironment(appName))
  const url = await services.appUrl(appName)
  const contract = environment.state
  const confinement = {
    config: run.config.browser,
    origins: [url],
    allowHosts: environment.allow_hosts,
    // The grading endpoints are the harness's, never the agent's.
    blocklist: contract ? [`${url}${contract.config_path}`, `${url}${contract.finish_path}`] : [],
  }
  // An agent that drives the browser over CDP gets a browser of its own, never the worker's.
  const browser = wantsCdp(run.config.agent.options)
    ? await BrowserSandbox.launchForCdp({ ...confinement, stepScreenshots: run.config.run.step_screenshots })
    : await BrowserSandbox.open({ ...confinement, browser: await services.browser() })
  const client = contract ? new StateClient(appName, url, contract, browser.context.request) : null
  const kit = appKit(appName)
  try {
    await client?.configure({ taskId, runId: run.run_id, seed: fields.seed, extra: kit.configExtra?.(fields) })
    await browser.page.goto(new URL(fields.start_path, url).href, { waitUntil: 'load' })
  } catch (error) {
    await browser.close()
    throw error
  }
  const state = async <T = unknown>(): Promise<T> => {
    if (!client) throw new Error(`the ${appName} environment has no state contract (environments.${appName}.state); check the page, the answer or the judge instead`)
    return (await client.state()) as T
  }
  const app: WebApp = {
    url,
    name: appName,
    state,
    finish: async () => {
      if (!kit.view) throw new Error(`app.finish() is an app's typed state, and ${appName} has none; read its state with app.state()`)
      return kit.view(await state())
    },
  }
  const sandbox: TaskSandbox<BrowserParts> = {
    // Over CDP, the Computer tells the turn when its own actions navigate (they are its steps).
    computer: browser.cdp?.computer ?? browser.computer,
    parts: {
      app,
      get page() {
        return browser.page
      },
      browser,
    },
    solutionParts: (computer) => {
      const ui = new BrowserUi(computer, () => browser.page, url)
      return { ui, app, ...kit.solutionParts?.(ui) }
    },
    agentServer: null,
    violations: () => browser.violations,
    gone: async () =>
      browser.context.browser()?.isConnected() === false ? { kind: 'sandbox_gone', message: 'the browser went away' } : cloneDown(appName, url),
    async saveEvidence(recorder) {
      return client ? recorder.saveJson('finish.json', await client.state()) : null
    },
    finalUrl: () => browser.page.url(),
    close: () => browser.close(),
    // Nothing of a CDP agent's keeps acting on the browser into the checks.
    ...(browser.cdp ? { turnEnds: () => browser.cdp!.end() } : {}),
  }
  if (browser.cdp) registerCdpTurn(sandbox, browser.cdp)
  return sandbox
}

/**
 * `agent.options.cdp`: whether the agent is handed a CDP endpoint of the task's browser (see
 * cdp-turn.ts). Another value is not guessed at: the task cannot run as asked, and says why.
 */
function wantsCdp(options: Record<string, unknown> | undefined): boolean {
  const cdp = options?.cdp
  if (cdp === undefined || typeof cdp === 'boolean') return cdp === true
  throw new SandboxUnavailable(`agent.options.cdp is true or false, not ${JSON.stringify(cdp)}`)
}

/** The clone's fault when it no longer answers HTTP at all (any status is an answer). */
async function cloneDown(name: string, url: string): Promise<Fault | null> {
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(3_000) })
    return null
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause
    return { kind: 'clone_down', message: `the ${name} web clone at ${url} does not answer: ${errorLine(cause ?? error)}` }
  }
}
