import { dirname, join } from 'node:path'
import type { AgentContext, AgentMeter, HarnessAccess } from '../agents/agent.ts'
import { agentTaskOf } from '../agents/task.ts'
import { sealComputer } from '../computer/sealed.ts'
import type { TestCase } from '../schema/task.ts'
import type { TaskSandbox } from '../sandbox/kind.ts'
import { cdpTurnOf } from '../sandbox/browser/cdp-turn.ts'
import type { ModelTranscript } from '../transcript/transcript.ts'
import type { Recorder } from '../trajectory/recorder.ts'
import { BlockedUrlError, SandboxGoneError, StepLimitError, TaskAbortedError, type RecordingComputer } from '../trajectory/recording-computer.ts'
import { NotApplicable } from './variants/not-applicable.ts'
import { variantSolution, type VariantKind } from './variants/variants.ts'
import { declaredEnvironments } from '../environments/start.ts'
import { ReferenceSolutionError } from './reference-error.ts'
import { solutionContext } from './solution-context.ts'
import type { TaskSpec } from './spec.ts'
import type { WorkerHarness } from './worker.ts'

/** What one task's agent is handed, from its session. */
export interface AgentAccessParts {
  testCase: TestCase
  spec: TaskSpec
  harness: WorkerHarness
  sandbox: TaskSandbox
  computer: RecordingComputer
  recorder: Recorder
  transcript: ModelTranscript
  meter: AgentMeter
  signal: AbortSignal
  maxSteps: number
  variantKind: VariantKind | null
}

/**
 * The sealed context every agent gets: the goal and its limits, a Computer with nothing behind
 * it, the agent's own settings. No title, checks, solution, page, container or file path.
 */
export function sealedAgentContext(parts: AgentAccessParts): AgentContext {
  const { harness, testCase, computer, recorder, transcript } = parts
  const { config } = harness.run
  // An agent that drives the browser over CDP: its turn is recorded from here (src/sandbox/browser/cdp-turn.ts).
  const cdp = cdpTurnOf(parts.sandbox)
  const cdpUrl = cdp?.begin({ recorder, maxSteps: parts.maxSteps, signal: parts.signal })
  return Object.freeze({
    task: agentTaskOf(testCase, {
      environment: computer.environment,
      screen: computer.dimensions,
      maxSteps: parts.maxSteps,
      timeoutMs: parts.spec.timeout_ms ?? config.run.task_timeout_ms,
    }),
    computer: sealComputer(computer),
    signal: parts.signal,
    think: (thought: string) => recorder.think(String(thought)),
    config: structuredClone(config.agent),
    meter: Object.freeze({ ...parts.meter }),
    transcript: Object.freeze({ wrap: (inner: typeof fetch) => transcript.wrap(inner) }),
    modelCache: config.run.model_cache
      ? {
          dir: join(dirname(harness.run.results_path), '.model-cache'),
          aliases: Object.fromEntries(Object.entries(harness.apps).flatMap(([name, status]) => ('url' in status ? [[status.url, name]] : []))),
          epoch: testCase.epoch,
        }
      : null,
    ...(cdpUrl ? { cdpUrl } : {}),
  })
}

/** Errors the harness raises to stop a run, which a solution passes on rather than causes. */
const HARNESS_STOPS = [StepLimitError, TaskAbortedError, SandboxGoneError, BlockedUrlError, NotApplicable]

/** What only agentest's own agents get (by identity): the reference, earlier runs, the packaged agent's server. */
export function harnessAccess(parts: AgentAccessParts): HarnessAccess {
  const { testCase, spec, variantKind: kind, signal, recorder, computer, sandbox, harness } = parts
  const { variant } = testCase
  // The task's app as the config declares it: its hedging candidates are the gate's.
  const environment = spec.app ? declaredEnvironments(harness.run.config)[spec.app] : undefined
  const solution = variant && kind ? variantSolution(spec, kind, variant, environment) : spec.solution
  const think = (thought: string) => recorder.think(thought)
  const referenceName = variant ? `${kind ?? 'variant'} named "${variant}"` : 'reference solution'
  const reference =
    solution &&
    (async () => {
      try {
        return (await solution(solutionContext(sandbox, computer, signal, think))) ?? null
      } catch (error) {
        // The harness's own stops (steps, abort, a dead sandbox, a blocked URL, not applicable) keep their kind.
        if (signal.aborted || HARNESS_STOPS.some((stop) => error instanceof stop)) throw error
        throw new ReferenceSolutionError(`the ${referenceName}`, error)
      }
    })
  return {
    reference: reference || null,
    referenceName,
    resultsDir: dirname(harness.run.results_path),
    agentServer: sandbox.agentServer,
    report: (step) => computer.recordReported(step.action, step.error),
    log: async (text) => void (await recorder.appendText('agent.log', text)),
  }
}
