import type { Browser } from 'playwright'
import type { AgentContext } from '../agents/agent.ts'
import { agentTaskOf } from '../agents/task.ts'
import { serveComputer, type ServedComputer } from '../computer-service/server.ts'
import type { Computer } from '../computer/computer.ts'
import { PlaywrightComputer } from '../computer/playwright.ts'
import { sealComputer } from '../computer/sealed.ts'
import { AgentConfig } from '../schema/config.ts'
import { Recorder } from '../trajectory/recorder.ts'
import { RecordingComputer } from '../trajectory/recording-computer.ts'

const PAGE = `<!doctype html><title>agentest agent:check</title>
<body style="font: 20px sans-serif; margin: 40px"><h1>agentest agent:check</h1>
<p>A page for the conformance check of an agent.</p><button>OK</button></body>`

export interface ServedPageTask {
  id: string
  goal: string
  maxSteps: number
  timeoutMs: number
  /** Where the steps and agent.log go. */
  dir: string
  /** Values no record may hold (the key the agent is given). */
  secrets: string[]
  /** The scripted model, as the agent's config names it. */
  model: { url: string; keyVariable: string }
  /** Wraps the agent's Computer (to notice its first call). */
  wrap?: (computer: Computer) => Computer
}

/** One check task: a page in a fresh browser context, its recorded Computer, served to the agent under check. */
export interface ServedPage {
  context: AgentContext
  recorder: Recorder
  served: ServedComputer
  abort: AbortController
  close(): Promise<void>
}

/** Serves a small page's Computer as a run serves a task's: every call a recorded, budgeted step. */
export async function servePage(browser: Browser, task: ServedPageTask): Promise<ServedPage> {
  const browserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await PlaywrightComputer.open(browserContext)
  await page.page.setContent(PAGE)
  const recorder = new Recorder(task.dir, task.id, null, task.secrets)
  const abort = new AbortController()
  const recorded = sealComputer(new RecordingComputer(page, recorder, { maxSteps: task.maxSteps, signal: abort.signal }))
  const context: AgentContext = {
    task: agentTaskOf({ id: task.id, task: task.goal }, { environment: 'browser', screen: page.dimensions, maxSteps: task.maxSteps, timeoutMs: task.timeoutMs }),
    computer: task.wrap ? task.wrap(recorded) : recorded,
    signal: abort.signal,
    think: (thought) => recorder.think(thought),
    config: AgentConfig.parse({ name: 'command', model: 'scripted-model', base_url: task.model.url, api_key_env: task.model.keyVariable, options: {} }),
  }
  const served = await serveComputer(context)
  served.outcome.catch(() => {})
  return {
    context,
    recorder,
    served,
    abort,
    close: async () => {
      await served.close()
      await recorder.flush().catch(() => {})
      await browserContext.close().catch(() => {})
    },
  }
}
